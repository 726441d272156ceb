# host.cmake - the host side of emu/: the instruction-count plugin for QEMU
# and where the fleet (service/lib/emu_*.cpp) finds the firmware images.

# Debian's QEMU accepts -plugin but ships neither plugins nor qemu-plugin.h;
# the header comes from Debian's qemu source package, fetched once into the
# build root, shared by the host-like presets (scripts/fetch-debian-source.sh;
# needs the Debian archive).
get_filename_component(_tigris_build_root ${CMAKE_BINARY_DIR} DIRECTORY)
set(TIGRIS_QEMU_PLUGIN_INCLUDE "" CACHE PATH
    "Directory with qemu-plugin.h; empty: fetch it into <build root>/qemu-source")
set(_qph_dir "${TIGRIS_QEMU_PLUGIN_INCLUDE}")
if(NOT _qph_dir)
  set(_qph_dir ${_tigris_build_root}/qemu-source/include/qemu)
  if(NOT EXISTS ${_qph_dir}/qemu-plugin.h AND NOT TIGRIS_QEMU_PLUGIN_FETCH_FAILED)
    message(STATUS "emu: fetching qemu-plugin.h from Debian's qemu source package")
    execute_process(COMMAND ${PROJECT_SOURCE_DIR}/scripts/fetch-debian-source.sh qemu
                            ${_tigris_build_root}/qemu-source include/qemu/qemu-plugin.h
                    RESULT_VARIABLE _qph_rc OUTPUT_QUIET ERROR_VARIABLE _qph_err)
    if(NOT _qph_rc EQUAL 0)
      message(WARNING "emu: could not fetch qemu-plugin.h (${_qph_err}); instruction counts will be "
                      "unavailable. Set TIGRIS_QEMU_PLUGIN_INCLUDE to a directory holding it.")
      set(TIGRIS_QEMU_PLUGIN_FETCH_FAILED ON CACHE INTERNAL "")
    endif()
  endif()
endif()

if(EXISTS ${_qph_dir}/qemu-plugin.h)
  add_library(tigris_icount MODULE ${CMAKE_CURRENT_SOURCE_DIR}/plugin/icount.c)
  target_include_directories(tigris_icount PRIVATE ${_qph_dir})
  tigris_warnings(tigris_icount)
  set_target_properties(tigris_icount PROPERTIES PREFIX "" OUTPUT_NAME tigris-icount
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/emu)
endif()

# The cross presets build into sibling trees: build/cortex-m4/emu/... next to
# build/host. Point this elsewhere when the images live somewhere else.
set(TIGRIS_FIRMWARE_DIR "${_tigris_build_root}" CACHE PATH
    "Root holding the firmware build trees (<dir>/<preset>/emu/tigris-emu-<board>.elf)")

# The host library's fleet (service/lib/emu_*.cpp) shares the descriptor
# layout with the harness and needs the default image and plugin paths. The
# library is created later (service/), so the wiring waits for it.
function(tigris_wire_emu_host)
  if(NOT TARGET tigris_host)
    return()
  endif()
  target_include_directories(tigris_host PRIVATE ${PROJECT_SOURCE_DIR}/emu/harness)
  target_compile_definitions(tigris_host PRIVATE TIGRIS_FIRMWARE_DIR_DEFAULT="${TIGRIS_FIRMWARE_DIR}")
  if(TARGET tigris_icount)
    target_compile_definitions(tigris_host PRIVATE TIGRIS_EMU_PLUGIN_DEFAULT="$<TARGET_FILE:tigris_icount>")
    add_dependencies(tigris_host tigris_icount)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL tigris_wire_emu_host)
