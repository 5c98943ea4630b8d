# BPF programs (--off-cpu, --filter on non-tracepoint events): each
# recorder/bpf/progs/NAME.bpf.c is compiled by clang for the BPF target and
# embedded in prec as a libbpf skeleton (bpftool gen skeleton) at
# generated/bpf/NAME.skel.h. The programs declare the few kernel types they
# read themselves, with CO-RE relocations (progs/kernel_types.h), so the build
# needs no vmlinux.h and no BTF on the build machine: libbpf fits them to the
# running kernel's BTF when prec loads them.
#
# Without clang, bpftool or libbpf, prec still builds: PREC_HAVE_BPF stays
# undefined and the options that need BPF say which packages bring it.
option(PREC_BPF "Build the BPF programs when clang, bpftool and libbpf are found" ON)
set(PREC_HAVE_BPF OFF)
set(PREC_BPF_MISSING "")
if(PREC_BPF AND NOT PREC_FUZZ_BUILD)
  pkg_check_modules(LIBBPF QUIET IMPORTED_TARGET libbpf)
  find_program(PREC_CLANG NAMES clang clang-16 clang-15 clang-14)
  find_program(PREC_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin /usr/local/sbin)
  if(NOT LIBBPF_FOUND)
    list(APPEND PREC_BPF_MISSING libbpf-dev)
  endif()
  if(NOT PREC_CLANG)
    list(APPEND PREC_BPF_MISSING clang)
  endif()
  if(NOT PREC_BPFTOOL)
    list(APPEND PREC_BPF_MISSING bpftool)
  endif()
  if(PREC_BPF_MISSING)
    list(JOIN PREC_BPF_MISSING " " PREC_BPF_MISSING)
    message(STATUS "BPF programs not built (missing ${PREC_BPF_MISSING}): --off-cpu and BPF --filter will say so (apt-get install ${PREC_BPF_MISSING}, or run scripts/bootstrap)")
  else()
    set(PREC_HAVE_BPF ON)
  endif()
endif()

# The BPF target's architecture name for bpf_tracing.h, and the multiarch
# include directory that holds <asm/types.h> on Debian.
set(PREC_BPF_ARCH ${CMAKE_SYSTEM_PROCESSOR})
if(PREC_BPF_ARCH MATCHES "x86_64|amd64|i.86")
  set(PREC_BPF_ARCH x86)
elseif(PREC_BPF_ARCH MATCHES "aarch64|arm64")
  set(PREC_BPF_ARCH arm64)
elseif(PREC_BPF_ARCH MATCHES "ppc64|powerpc")
  set(PREC_BPF_ARCH powerpc)
elseif(PREC_BPF_ARCH MATCHES "s390")
  set(PREC_BPF_ARCH s390)
elseif(PREC_BPF_ARCH MATCHES "riscv")
  set(PREC_BPF_ARCH riscv)
endif()
# progs/ for the programs' own headers; recorder/ for what they share with
# the recorder ("events/bpf_filter_entries.h").
set(PREC_BPF_INCLUDES -I${CMAKE_SOURCE_DIR}/recorder/bpf/progs -I${CMAKE_SOURCE_DIR}/recorder)
if(CMAKE_LIBRARY_ARCHITECTURE)
  list(APPEND PREC_BPF_INCLUDES -I/usr/include/${CMAKE_LIBRARY_ARCHITECTURE})
endif()
if(LIBBPF_INCLUDE_DIRS)
  foreach(dir ${LIBBPF_INCLUDE_DIRS})
    list(APPEND PREC_BPF_INCLUDES -I${dir})
  endforeach()
endif()

set(PREC_BPF_SKELETONS "")
# prec_bpf_skeleton(NAME): recorder/bpf/progs/NAME.bpf.c -> generated/bpf/NAME.skel.h
function(prec_bpf_skeleton name)
  if(NOT PREC_HAVE_BPF)
    return()
  endif()
  set(src ${CMAKE_SOURCE_DIR}/recorder/bpf/progs/${name}.bpf.c)
  set(obj ${CMAKE_BINARY_DIR}/generated/bpf/${name}.bpf.o)
  set(skel ${CMAKE_BINARY_DIR}/generated/bpf/${name}.skel.h)
  file(GLOB prog_headers ${CMAKE_SOURCE_DIR}/recorder/bpf/progs/*.h
    ${CMAKE_SOURCE_DIR}/recorder/events/bpf_filter_entries.h)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated/bpf
    COMMAND ${PREC_CLANG} -g -O2 -target bpf -D__TARGET_ARCH_${PREC_BPF_ARCH}
            -Wall -Werror ${PREC_BPF_INCLUDES} -c ${src} -o ${obj}
    DEPENDS ${src} ${prog_headers}
    COMMENT "BPF ${name}.bpf.c" VERBATIM)
  add_custom_command(OUTPUT ${skel}
    COMMAND ${PREC_BPFTOOL} gen skeleton ${obj} name ${name}_bpf > ${skel}
    DEPENDS ${obj}
    COMMENT "BPF skeleton ${name}.skel.h" VERBATIM)
  set(PREC_BPF_SKELETONS ${PREC_BPF_SKELETONS} ${skel} PARENT_SCOPE)
endfunction()
