# Installing prec: `cmake --install build [--prefix P]` and the Debian
# package `cpack -G DEB` (run in the build directory) put the same files in
# the same places. The man pages and the bash completion are generated from
# the option table and installed by doc/CMakeLists.txt.
include(GNUInstallDirs)

install(TARGETS prec RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# `perf prec ...`: perf runs a command it does not know, NAME, as perf-NAME
# found in its exec path or on PATH, with the rest of the command line. A
# link beside prec, so the two never differ. Made at install time so that
# --prefix and DESTDIR (which cpack uses) both apply.
install(CODE "
  set(bindir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  message(STATUS \"Installing: \${bindir}/perf-prec -> prec\")
  execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink prec \"\${bindir}/perf-prec\"
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR \"cannot make \${bindir}/perf-prec: \${rc}\")
  endif()
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${bindir}/perf-prec\")
")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME prec)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "profile recorder writing perf.data, a drop-in for perf record")
set(CPACK_PACKAGE_DESCRIPTION
    "prec records what perf record records, with the same command line, into a perf.data file or stream that perf report, perf script and perf inject read. It loses fewer events, costs less CPU and starts the command at once.")
set(CPACK_PACKAGE_CONTACT "prec developers <prec@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# prec_VERSION_ARCH.deb, Debian's own naming.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The runtime libraries (libzstd1, libnuma1, libunwind8, libcap2, ...) as
# dpkg-shlibdeps finds them in the binary: no list to keep in step by hand.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# perf reads what prec writes (prec records without it); bash-completion
# runs the installed completion on TAB; libdebuginfod1 is dlopen'ed by
# --debuginfod alone (shlibdeps cannot see it), when built with its header.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "linux-perf, bash-completion")
if(DEBUGINFOD_FOUND)
  string(APPEND CPACK_DEBIAN_PACKAGE_RECOMMENDS ", libdebuginfod1")
endif()
include(CPack)
