# Runs build/tigris_posix_example and checks what it writes and how it exits.
#
#   cmake -DEXAMPLE=... -DWORK=... -DMODE=plan|errors|corpus [-DPLAN=...] [-DTIGRIS=...]
#         [-DCORPUS=...] -P posix_example_test.cmake
#
# MODE plan:   the build's example plan: runs, prints its output, writes the
#              output file; with the tigris CLI given, the bytes must equal
#              `tigris run`'s for the same input.
# MODE errors: each failure has its own exit code (examples/posix/main.c).
# MODE corpus: the shared corpus plans whose outputs are bit exact must give
#              the expected bytes, from the pattern fill and from the input
#              files. Prints SKIPPED (the test's skip pattern) without it.
foreach(v EXAMPLE WORK MODE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "posix_example_test.cmake: ${v} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# run(<expected exit code> args...): sets out to stdout + stderr.
function(run want)
  execute_process(COMMAND ${EXAMPLE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc STREQUAL "${want}")
    message(FATAL_ERROR "tigris_posix_example ${ARGN}: exit ${rc}, expected ${want}\n${o}\n${e}")
  endif()
  set(out "${o}${e}" PARENT_SCOPE)
endfunction()

function(same_bytes got want what)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${got} ${want} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    file(SIZE ${got} gs)
    file(SIZE ${want} ws)
    message(FATAL_ERROR "${what}: ${got} (${gs} bytes) differs from ${want} (${ws} bytes)")
  endif()
  message(STATUS "${what}: output bytes match")
endfunction()

# n bytes of one printable character (CMake strings cannot hold NUL):
# '?' repeated is float32 0x3F3F3F3F = 0.747, a fine input for a float plan.
function(write_filler path n)
  string(REPEAT "?" ${n} text)
  file(WRITE ${path} "${text}")
endfunction()

if(MODE STREQUAL "plan")
  run(0 ${PLAN})
  if(NOT out MATCHES "output 0 \"y\" float32 \\[1,8,8,8\\] 2048 bytes")
    message(FATAL_ERROR "unexpected summary:\n${out}")
  endif()
  run(0 ${PLAN} - ${WORK}/pattern.out)
  file(SIZE ${WORK}/pattern.out n)
  if(NOT n EQUAL 2048)
    message(FATAL_ERROR "wrote ${n} output bytes, the plan's output has 2048")
  endif()
  # The same input through the service's runner (tigris run).
  write_filler(${WORK}/in.bin 3072)
  run(0 ${PLAN} ${WORK}/in.bin ${WORK}/example.out)
  if(TIGRIS)
    execute_process(COMMAND ${TIGRIS} run ${PLAN} --input ${WORK}/in.bin --output ${WORK}/cli.out
                    RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "tigris run failed (${rc}):\n${o}\n${e}")
    endif()
    same_bytes(${WORK}/example.out ${WORK}/cli.out "example plan vs tigris run")
  endif()
elseif(MODE STREQUAL "errors")
  run(2)                                            # no arguments
  run(2 a b c d)                                    # too many
  run(3 ${WORK}/no-such-plan.tgrs)                  # missing plan file
  run(3 ${WORK})                                    # a directory is no plan file
  file(WRITE ${WORK}/text.tgrs "this is not a plan\n")
  run(4 ${WORK}/text.tgrs)                          # bad magic
  file(WRITE ${WORK}/corrupt.tgrs "TGRS~~~~ garbage where the header should be, long enough to read")
  run(4 ${WORK}/corrupt.tgrs)                       # magic, then garbage
  if(NOT out MATCHES "refused")
    message(FATAL_ERROR "no refusal message:\n${out}")
  endif()
  file(WRITE ${WORK}/empty.tgrs "")
  run(4 ${WORK}/empty.tgrs)                         # empty file
  run(5 ${PLAN} ${WORK}/no-such-input.bin)          # missing input file
  write_filler(${WORK}/short.bin 3071)
  run(6 ${PLAN} ${WORK}/short.bin)                  # one byte short
  if(NOT out MATCHES "3071 bytes; the plan's 1 model input\\(s\\) take 3072 bytes")
    message(FATAL_ERROR "unclear input size message:\n${out}")
  endif()
  write_filler(${WORK}/long.bin 3073)
  run(6 ${PLAN} ${WORK}/long.bin)                   # one byte long
  run(10 ${PLAN} - ${WORK}/no-such-dir/out.bin)     # output cannot be written
  if(CORRUPT_PLAN AND EXISTS ${CORRUPT_PLAN})       # the corpus's schema-1 plan
    run(4 ${CORRUPT_PLAN})
    if(NOT out MATCHES "version")
      message(FATAL_ERROR "schema-1 plan not refused for its version:\n${out}")
    endif()
  endif()
  message(STATUS "every error path has its exit code")
elseif(MODE STREQUAL "corpus")
  if(NOT CORPUS OR NOT EXISTS ${CORPUS}/MANIFEST.md)
    message("SKIPPED: the shared corpus is not at '${CORPUS}' (set TIGRIS_SHARED_DIR)")
    return()
  endif()
  # The int8 plan and the pool chain are bit exact (MANIFEST.md); the float
  # conv chains depend on expf and summation order, so bytes are not compared.
  foreach(p linebuf_s8_conv_sig_chain_v5 pool_chain_v5)
    run(0 ${CORPUS}/${p}.pattern.tgrs - ${WORK}/${p}.pattern.out)
    same_bytes(${WORK}/${p}.pattern.out ${CORPUS}/${p}.pattern.expected.bin "${p} pattern fill")
    foreach(v pattern random)
      run(0 ${CORPUS}/${p}.${v}.tgrs ${CORPUS}/${p}.${v}.input.bin ${WORK}/${p}.${v}.out)
      same_bytes(${WORK}/${p}.${v}.out ${CORPUS}/${p}.${v}.expected.bin "${p}.${v}")
    endforeach()
  endforeach()
  # The float chains run and write outputs of the expected size.
  foreach(p linebuf_conv_chain_v5 linebuf_conv_sig_chain_v5)
    run(0 ${CORPUS}/${p}.random.tgrs ${CORPUS}/${p}.random.input.bin ${WORK}/${p}.out)
    file(SIZE ${WORK}/${p}.out n)
    file(SIZE ${CORPUS}/${p}.random.expected.bin want)
    if(NOT n EQUAL want)
      message(FATAL_ERROR "${p}: ${n} output bytes, expected ${want}")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
