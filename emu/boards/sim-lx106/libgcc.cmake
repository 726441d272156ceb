# libgcc.cmake - tigris_lx106_libgcc: the libgcc routines Debian's lx106
# libgcc.a leaves out, for every lx106 image (emu/ and the parity image of
# tests/xt_parity/lx106).
#
# gcc-xtensa-lx106 drops the routines the ESP8266 ROM supplies on a real
# part: 32-bit division, 32x32->64 and 64-bit multiply, 64-bit division, float
# add, subtract and multiply, the int<->float conversions and all double
# arithmetic but compares and negation. The emulated board has no such ROM.
#
# Float and double: GCC's own Xtensa soft-float, the assembly of
# libgcc/config/xtensa (lib1funcs.S with ieee754-sf.S and ieee754-df.S, one
# object per L_<name> macro as libgcc's t-xtensa builds them), taken from
# Debian's gcc-N-source package at configure time and assembled with the
# lx106 core description (xtensa-config.h) that gcc-xtensa-lx106 ships in its
# plugin headers: the same code a complete lx106 libgcc has (the routines
# libgcc.a does have assemble to identical instructions this way).
#
# Integer: libgcc_fill.c, hand-written. The 64-bit routines are C in GCC's
# libgcc2.c, which needs GCC's whole build configuration to compile.
# lib1funcs.S also has the 32-bit division and __umulsidi3; the fill's
# versions came first and stay, as the lx106 instruction counts in
# docs/emu.md and docs/kernels-xtensa.md were measured with them.
set(_lx106_dir ${CMAKE_CURRENT_LIST_DIR})

# lib1funcs.S objects that libgcc.a lacks and that assemble to code on this
# core (t-xtensa also lists _floatunsisf and _floatunsidf, which are empty:
# _floatsisf and _floatsidf define both entry points).
set(TIGRIS_LX106_SOFTFLOAT addsubsf3 mulsf3 fixunssfsi floatsisf
                           addsubdf3 muldf3 divdf3 fixdfsi fixunsdfsi floatsidf truncdfsf2 extendsfdf2)

set(TIGRIS_GCC_SOURCE_DIR "" CACHE PATH
    "Unpacked GCC source (with libgcc/config/xtensa); empty: extract it from Debian's gcc-N-source into <build root>/gcc-source")
set(_gcc_dir "${TIGRIS_GCC_SOURCE_DIR}")
set(_gcc_files lib1funcs.S ieee754-sf.S ieee754-df.S)
if(NOT _gcc_dir)
  get_filename_component(_tigris_build_root ${CMAKE_BINARY_DIR} DIRECTORY)
  set(_gcc_dir ${_tigris_build_root}/gcc-source)
  # The tarball of the compiler's own version: the routines must be the ones
  # this compiler's libgcc would have.
  string(REGEX MATCH "^[0-9]+" _gcc_major "${CMAKE_C_COMPILER_VERSION}")
  file(GLOB _gcc_tarball /usr/src/gcc-${_gcc_major}/gcc-${CMAKE_C_COMPILER_VERSION}*.tar.*)
  if(NOT _gcc_tarball)
    message(FATAL_ERROR "emu: no GCC ${CMAKE_C_COMPILER_VERSION} source tarball in /usr/src/gcc-${_gcc_major} "
                        "(Debian package gcc-${_gcc_major}-source; scripts/setup.sh installs it). The lx106 image "
                        "needs libgcc/config/xtensa from it for the soft-float routines Debian's lx106 libgcc lacks. "
                        "Install it, or set TIGRIS_GCC_SOURCE_DIR to an unpacked GCC ${CMAKE_C_COMPILER_VERSION} source.")
  endif()
  list(GET _gcc_tarball 0 _gcc_tarball)
  get_filename_component(_gcc_tarname ${_gcc_tarball} NAME)
  set(_gcc_stamp ${_gcc_dir}/.extracted)
  set(_gcc_have "")
  if(EXISTS ${_gcc_stamp})
    file(READ ${_gcc_stamp} _gcc_have)
  endif()
  foreach(f ${_gcc_files})
    if(NOT EXISTS ${_gcc_dir}/libgcc/config/xtensa/${f})
      set(_gcc_have "")
    endif()
  endforeach()
  if(NOT _gcc_have STREQUAL "${_gcc_tarname} ${_gcc_files}")
    message(STATUS "emu: libgcc/config/xtensa from ${_gcc_tarname}")
    set(_gcc_patterns ${_gcc_files})
    list(TRANSFORM _gcc_patterns PREPEND "*/libgcc/config/xtensa/")
    file(MAKE_DIRECTORY ${_gcc_dir})
    # xz streams cannot seek: this reads the whole tarball once (seconds).
    execute_process(COMMAND tar xf ${_gcc_tarball} -C ${_gcc_dir} --strip-components=1 --wildcards ${_gcc_patterns}
                    RESULT_VARIABLE _gcc_rc ERROR_VARIABLE _gcc_err)
    if(NOT _gcc_rc EQUAL 0)
      message(FATAL_ERROR "emu: could not extract libgcc/config/xtensa from ${_gcc_tarball} (${_gcc_err}). "
                          "Set TIGRIS_GCC_SOURCE_DIR to an unpacked GCC ${CMAKE_C_COMPILER_VERSION} source.")
    endif()
    file(WRITE ${_gcc_stamp} "${_gcc_tarname} ${_gcc_files}")
  endif()
endif()
set(_gcc_xt ${_gcc_dir}/libgcc/config/xtensa)
foreach(f ${_gcc_files})
  if(NOT EXISTS ${_gcc_xt}/${f})
    message(FATAL_ERROR "emu: ${_gcc_xt}/${f} is missing (TIGRIS_GCC_SOURCE_DIR must hold an unpacked GCC source)")
  endif()
endforeach()

# The core description gcc-xtensa-lx106 was built with (no FPU, no DIV32,
# call0 ABI, ...). Copied alone: its directory holds all of GCC's plugin
# headers, which must not be on the include path.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=plugin OUTPUT_VARIABLE _gcc_plugin
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS ${_gcc_plugin}/include/xtensa-config.h)
  message(FATAL_ERROR "emu: ${CMAKE_C_COMPILER} ships no plugin/include/xtensa-config.h (looked in ${_gcc_plugin}); "
                      "the soft-float routines must be assembled for the compiler's own core description.")
endif()
set(_sf_dir ${CMAKE_CURRENT_BINARY_DIR}/lx106-softfloat)
configure_file(${_gcc_plugin}/include/xtensa-config.h ${_sf_dir}/xtensa-config.h COPYONLY)

# One source per routine, as libgcc builds them: lib1funcs.S with L_<name>.
set(_sf_sources "")
foreach(f ${TIGRIS_LX106_SOFTFLOAT})
  file(CONFIGURE OUTPUT ${_sf_dir}/_${f}.S CONTENT "#define L_${f}\n#include \"lib1funcs.S\"\n")
  list(APPEND _sf_sources ${_sf_dir}/_${f}.S)
endforeach()

enable_language(ASM)
# Objects, not an archive: they come before libm and libgcc on the link line
# (picolibc's math pulls double routines in late); --gc-sections drops the
# routines nothing calls.
add_library(tigris_lx106_libgcc OBJECT ${_lx106_dir}/libgcc_fill.c ${_sf_sources})
target_include_directories(tigris_lx106_libgcc PRIVATE ${_sf_dir} ${_gcc_xt})
tigris_source_warnings(${_lx106_dir}/libgcc_fill.c)
