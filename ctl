enable
ping
disable cpu-clock
evlist
evlist -v
evlist -g
evlist -F
evlist -x
enablex
enable nosuch
bogus
snapshot
disable
stop
