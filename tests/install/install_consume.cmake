# Install the runtime from a build tree into a fresh prefix, then build and
# run a separate project against it (tests/install/consumer), as README.md
# and docs/install.md describe. Also checks that the package version file
# refuses requests newer than this release.
#
#   cmake -DBUILD_DIR=... -DWORK=... -DCONSUMER=... -DGENERATOR=... -DC_COMPILER=...
#         [-DCONSUMER_FLAGS=...] [-DEXPECT_TRACE=ON|OFF] [-DPLAN=...] [-DEXAMPLE_SOURCE=... -DEXAMPLE=...]
#         -P install_consume.cmake
foreach(v BUILD_DIR WORK CONSUMER GENERATOR C_COMPILER)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "install_consume.cmake: ${v} is not set")
  endif()
endforeach()

set(prefix ${WORK}/prefix)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}${err}" PARENT_SCOPE)
endfunction()

# 1. Install.
run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
message(STATUS "installed into ${prefix}")

# What must be there (GNUInstallDirs may pick lib or lib64, so find it).
file(GLOB_RECURSE config_files "${prefix}/*/tigris_runtimeConfig.cmake")
list(LENGTH config_files n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one tigris_runtimeConfig.cmake under ${prefix}, found: ${config_files}")
endif()
get_filename_component(config_dir ${config_files} DIRECTORY)
foreach(f tigris_runtimeConfig.cmake tigris_runtimeConfigVersion.cmake tigris_runtimeTargets.cmake)
  if(NOT EXISTS ${config_dir}/${f})
    message(FATAL_ERROR "not installed: ${config_dir}/${f}")
  endif()
endforeach()
foreach(h tigris.h tigris_config.h tigris_loader.h tigris_mem.h tigris_iface.h tigris_executor.h tigris_kernels.h
          tigris_trace.h)
  if(NOT EXISTS ${prefix}/include/tigris/${h})
    message(FATAL_ERROR "header not installed: include/tigris/${h}")
  endif()
endforeach()
file(GLOB_RECURSE libs "${prefix}/*libtigris_core.a")
if(NOT libs)
  message(FATAL_ERROR "libtigris_core.a not installed under ${prefix}")
endif()

# Only the core: no programs, no service libraries.
file(GLOB_RECURSE all_installed RELATIVE ${prefix} "${prefix}/*")
foreach(f IN LISTS all_installed)
  if(NOT f MATCHES "^include/tigris/tigris[a-z0-9_]*\\.h$" AND NOT f MATCHES "/libtigris_core\\.a$"
     AND NOT f MATCHES "/cmake/tigris_runtime/tigris_runtime[A-Za-z-]*\\.cmake$")
    message(FATAL_ERROR "installed a file that is not part of the runtime package: ${f}")
  endif()
endforeach()

# The package must be relocatable: no path of the build or source tree.
file(GLOB pkg_files ${config_dir}/*.cmake)
foreach(f IN LISTS pkg_files)
  file(READ ${f} text)
  foreach(tree ${BUILD_DIR} ${SOURCE_DIR})
    string(FIND "${text}" "${tree}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} names ${tree}; the installed package must not depend on the build machine's trees")
    endif()
  endforeach()
endforeach()

# 2. Configure, build and run the consumer with the documented request (0.6).
set(common -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
           -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
           "-DCMAKE_C_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}")
set(consumer_args ${common} -DTIGRIS_REQUEST=0.6)
if(DEFINED EXPECT_TRACE)
  list(APPEND consumer_args -DCONSUMER_EXPECT_TRACE=${EXPECT_TRACE})
endif()
if(EXAMPLE_SOURCE)
  list(APPEND consumer_args -DTIGRIS_POSIX_EXAMPLE_SOURCE=${EXAMPLE_SOURCE})
endif()
run_checked("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/consumer ${consumer_args})
file(STRINGS ${WORK}/consumer/CMakeCache.txt found_dir REGEX "^tigris_runtime_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found_dir "${found_dir}")
if(NOT found_dir STREQUAL config_dir)
  message(FATAL_ERROR "the consumer found tigris_runtime in '${found_dir}', not in the test prefix ${config_dir}")
endif()
run_checked("building the consumer" ${CMAKE_COMMAND} --build ${WORK}/consumer)
# It compiled against the installed headers, not the source tree's.
if(SOURCE_DIR)
  file(READ ${WORK}/consumer/compile_commands.json cc)
  string(FIND "${cc}" "${SOURCE_DIR}/core" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the consumer's compile commands name the source tree's core: ${cc}")
  endif()
endif()

run_checked("running the consumer" ${WORK}/consumer/tigris_consumer ${PLAN})
message(STATUS "${last_output}")
if(PLAN AND NOT last_output MATCHES "consumer: ran .*, [1-9][0-9]* output bytes")
  message(FATAL_ERROR "the consumer did not run the plan:\n${last_output}")
endif()

# The POSIX example built against the package must give the in-tree build's
# output bytes for the same plan.
if(EXAMPLE_SOURCE AND EXAMPLE AND PLAN)
  run_checked("the installed-package example" ${WORK}/consumer/tigris_posix_example ${PLAN} - ${WORK}/pkg.out)
  run_checked("the in-tree example" ${EXAMPLE} ${PLAN} - ${WORK}/tree.out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/pkg.out ${WORK}/tree.out RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    message(FATAL_ERROR "the example built against the installed package wrote other bytes than the in-tree build")
  endif()
  message(STATUS "the installed-package example matches the in-tree example")
endif()

# 3. The version file: this release is found for requests up to its own and
#    refused for newer ones.
foreach(v 0.11 0.11.0)
  run_checked("find_package(tigris_runtime ${v})" ${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/accept-${v}
              ${common} -DTIGRIS_REQUEST=${v})
endforeach()
foreach(v 0.12 1.0)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/refuse-${v} ${common} -DTIGRIS_REQUEST=${v}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "find_package(tigris_runtime ${v}) accepted the installed 0.11 package:\n${out}\n${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "compatible with requested version \"${v}\"")
    message(FATAL_ERROR "find_package(tigris_runtime ${v}) failed for another reason:\n${out}\n${err}")
  endif()
  message(STATUS "find_package(tigris_runtime ${v}) refused, as it must be")
endforeach()
message(STATUS "install and consume: ok")
