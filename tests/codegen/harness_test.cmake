# Generated harnesses, built with the host compiler and run (label codegen).
#
#   cmake -DMODE=s8|source|stubs|qemu -DTIGRIS=<cli> -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK=...
#         -DGENERATOR=... -DC_COMPILER=... -DEXAMPLE_PLAN=... [-DCORPUS=<dir> -DMODELS=<dir>] -DSTUB_DIR=...
#         -DAPI_USE=...
#         -P harness_test.cmake
#
# s8:     the example plan, every corpus plan and a shared model imported with
#         XIP weights and with LZ4 blocks: generate, build against the
#         runtime installed into a temporary prefix, run on the corpus inputs;
#         the bytes must be `tigris run`'s and the corpus's expected output.
#         The declared fast arena must be exactly enough: one byte less and
#         the harness stops at start-up, naming the exact need (and, for a
#         schema-11 plan, the executor refuses too when that check is
#         compiled out).
# source: one harness built with -DTIGRIS_RUNTIME_SOURCE_DIR (no install).
# stubs:  the int8 corpus plan for each device backend, built for the host
#         with stub_backends.c in place of the backend: the text compiles with
#         strict warnings, the scratch check names the exact value to set, and
#         with that value (not one less) the harness runs and matches.
# qemu:   (-DBOARD=cortex-m4|cortex-m55) the int8 corpus plan for s8,
#         tigris-arm and cmsis-nn, and a shared model with XIP weights for
#         cmsis-nn (the cmsis-nn parts when -DTHIRD_PARTY=<dir> has CMSIS-NN/
#         and CMSIS_6/; skipped, saying so, otherwise), built with arm-none-eabi-gcc against the runtime
#         cross-built and installed for the board, run on its QEMU machine:
#         the corpus's (or `tigris run`'s) bytes, and the real kernels'
#         scratch check naming exactly the reserve they need.
foreach(v MODE TIGRIS BUILD_DIR WORK GENERATOR C_COMPILER EXAMPLE_PLAN)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "harness_test.cmake: ${v} is not set")
  endif()
endforeach()

cmake_minimum_required(VERSION 3.25)  # policies: empty list elements kept, IN_LIST
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(prefix ${WORK}/prefix)

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()

# run_expect(<what> <exit code> <out var for stdout+stderr> COMMAND...)
function(run_expect what code outvar)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${code}")
    message(FATAL_ERROR "${what}: exit ${rc}, expected ${code}:\n${out}\n${err}")
  endif()
  set(${outvar} "${out}${err}" PARENT_SCOPE)
endfunction()

function(same_bytes what a b)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: ${a} and ${b} differ")
  endif()
endfunction()

# The value of `#define <macro> <n>u` in a generated header.
function(header_value header macro outvar)
  file(STRINGS ${header} line REGEX "^#define ${macro} [0-9]+u?$")
  if(NOT line MATCHES " ([0-9]+)u?$")
    message(FATAL_ERROR "${header} has no #define ${macro}")
  endif()
  set(${outvar} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

function(generate plan backend name)
  run_checked("tigris codegen ${plan} --backend ${backend}" ${TIGRIS} codegen ${plan} --backend ${backend}
              --name ${name} -o ${WORK}/${name})
endfunction()

# SAN_FLAGS: the sanitizer a sanitized core needs in every link against it.
set(common -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_BUILD_TYPE=Release
           -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_EXE_LINKER_FLAGS=${SAN_FLAGS}")

# build(<name> <build dir> <C flags>): the generated CMakeLists, installed runtime.
function(build name dir flags)
  run_checked("configuring ${name}" ${CMAKE_COMMAND} -S ${WORK}/${name} -B ${dir} ${common}
              "-DCMAKE_C_FLAGS=${SAN_FLAGS} ${flags}")
  run_checked("building ${name}" ${CMAKE_COMMAND} --build ${dir})
endfunction()

# The generated C compiled with strict warnings, in a small project against
# the installed package (so it sees the library's compile definitions).
function(strict_check name defs)
  set(dir ${WORK}/strict_${name})
  file(MAKE_DIRECTORY ${dir})
  file(WRITE ${dir}/CMakeLists.txt "cmake_minimum_required(VERSION 3.20)
project(strict LANGUAGES C)
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_EXTENSIONS OFF)
find_package(tigris_runtime 0.6 REQUIRED CONFIG)
add_library(strict OBJECT ${WORK}/${name}/${name}.c ${WORK}/${name}/${name}_main.c)
target_include_directories(strict PRIVATE ${WORK}/${name})
target_compile_definitions(strict PRIVATE ${defs})
target_compile_options(strict PRIVATE -Wall -Wextra -Werror -pedantic -Wshadow -Wstrict-prototypes -Wconversion)
target_link_libraries(strict PRIVATE tigris::runtime)
")
  run_checked("configuring the strict compile of ${name}" ${CMAKE_COMMAND} -S ${dir} -B ${dir}/build ${common})
  run_checked("strict compile of ${name}" ${CMAKE_COMMAND} --build ${dir}/build)
endfunction()

if(NOT MODE STREQUAL "source")
  run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
endif()

set(plans)
if(CORPUS AND EXISTS ${CORPUS}/pool_chain_v5.pattern.tgrs)
  foreach(p pool_chain_v5 linebuf_conv_chain_v5 linebuf_conv_sig_chain_v5 linebuf_s8_conv_sig_chain_v5)
    list(APPEND plans ${p})
  endforeach()
endif()

if(MODE STREQUAL "s8")
  # The example plan has no stored input: the first bytes of a float32
  # corpus input (valid floats) when the corpus is there, zeros otherwise.
  set(ex_in ${WORK}/example.input.bin)
  if(plans)
    execute_process(COMMAND head -c 3072 ${CORPUS}/linebuf_conv_chain_v5.random.input.bin OUTPUT_FILE ${ex_in})
  else()
    execute_process(COMMAND head -c 3072 /dev/zero OUTPUT_FILE ${ex_in})
  endif()
  set(cases "ex|${EXAMPLE_PLAN}|${ex_in}|")
  foreach(p IN LISTS plans)
    foreach(kind pattern random)
      list(APPEND cases "${p}|${CORPUS}/${p}.${kind}.tgrs|${CORPUS}/${p}.${kind}.input.bin|${CORPUS}/${p}.${kind}.expected.bin")
    endforeach()
  endforeach()
  # A shared int8 model imported twice: weights in place (XIP) and LZ4
  # blocks decompressed into the fast arena (which the core figure counts).
  set(kws ${MODELS}/kws_ref_model.tflite)
  if(plans AND EXISTS ${kws})
    run_checked("tigris import --xip" ${TIGRIS} import ${kws} --xip -o ${WORK}/kws_xip.tgrs)
    run_checked("tigris import --compress lz4" ${TIGRIS} import ${kws} --compress lz4 --fast-budget 32768
                -o ${WORK}/kws_lz4.tgrs)
    set(kws_in ${WORK}/kws.input.bin)
    execute_process(COMMAND head -c 490 ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.input.bin OUTPUT_FILE ${kws_in})
    list(APPEND cases "kws_xip|${WORK}/kws_xip.tgrs|${kws_in}|" "kws_lz4|${WORK}/kws_lz4.tgrs|${kws_in}|")
  endif()
  set(done_plans)
  foreach(c IN LISTS cases)
    string(REPLACE "|" ";" f "${c}")
    list(GET f 0 name)
    list(GET f 1 plan)
    list(GET f 2 input)
    list(GET f 3 expected)
    string(TOUPPER ${name} U)
    if(NOT name IN_LIST done_plans)
      generate(${plan} s8 ${name})
      strict_check(${name} "")
      build(${name} ${WORK}/${name}/build "")
      list(APPEND done_plans ${name})
      set(input_${name} ${input})
    endif()
    set(out ${WORK}/${name}.out.bin)
    run_expect("${name} on ${input}" 0 said ${WORK}/${name}/build/${name} ${input} ${out})
    run_checked("tigris run ${plan}" ${TIGRIS} run ${plan} --input ${input} --output ${WORK}/${name}.ref.bin)
    same_bytes("${name}: harness vs tigris run" ${out} ${WORK}/${name}.ref.bin)
    if(expected)
      same_bytes("${name}: harness vs the corpus" ${out} ${expected})
    endif()
    message(STATUS "${name}: ${input} matches: ${said}")
  endforeach()

  # Exactly enough: the declared core figure runs (above); one byte less is
  # refused at start-up with the figure to set.
  foreach(name IN LISTS done_plans)
    string(TOUPPER ${name} U)
    header_value(${WORK}/${name}/${name}.h ${U}_CORE_FAST_BYTES need)
    math(EXPR less "${need} - 1")
    build(${name} ${WORK}/${name}/small "-D${U}_CORE_FAST_BYTES=${less}")
    run_expect("${name} with a fast arena of ${less}" 12 said ${WORK}/${name}/small/${name} ${input_${name}}
               ${WORK}/x.bin)
    if(NOT said MATCHES "the plan needs ${need} bytes; this harness has ${less}; rebuild with -D${U}_CORE_FAST_BYTES=${need}")
      message(FATAL_ERROR "${name}: the start-up check did not name the need:\n${said}")
    endif()
  endforeach()
  # Schema 11 states what the schedule holds; the executor itself refuses a
  # byte less (docs/runtime-semantics.md R2.2.3).
  foreach(name ex kws_lz4)
    if(NOT name IN_LIST done_plans)
      continue()
    endif()
    string(TOUPPER ${name} U)
    header_value(${WORK}/${name}/${name}.h ${U}_CORE_FAST_BYTES need)
    math(EXPR less "${need} - 1")
    build(${name} ${WORK}/${name}/nocheck "-D${U}_CORE_FAST_BYTES=${less} -D${U}_SKIP_ARENA_CHECK")
    run_expect("${name} without the start-up check" 18 said ${WORK}/${name}/nocheck/${name} ${input_${name}}
               ${WORK}/x.bin)
    if(NOT said MATCHES "arena too small")
      message(FATAL_ERROR "the executor did not refuse the smaller arena for ${name}:\n${said}")
    endif()
  endforeach()
  # An application on the harness API: several inferences on one _init(),
  # every out-of-order call refused (api_use.c; the harness named m).
  if(plans AND API_USE)
    set(p ${CORPUS}/linebuf_s8_conv_sig_chain_v5)
    generate(${p}.random.tgrs s8 m)
    file(APPEND ${WORK}/m/CMakeLists.txt "add_executable(api_use ${API_USE})\ntarget_link_libraries(api_use PRIVATE m_harness)\n")
    build(m ${WORK}/m/build "")
    run_expect("api_use" 0 said ${WORK}/m/build/api_use ${p}.pattern.input.bin ${p}.pattern.expected.bin
               ${p}.random.input.bin ${p}.random.expected.bin)
    message(STATUS "${said}")
  endif()
  # A device build defines TIGRIS_HARNESS_NO_MAIN: the POSIX file is empty.
  find_program(NM nm)
  if(NM)
    run_checked("compiling ex_main.c without main" ${C_COMPILER} -c -DTIGRIS_HARNESS_NO_MAIN -I${WORK}/ex
                ${WORK}/ex/ex_main.c -o ${WORK}/nomain.o)
    execute_process(COMMAND ${NM} ${WORK}/nomain.o OUTPUT_VARIABLE syms)
    if(syms MATCHES "[Tt] main")
      message(FATAL_ERROR "ex_main.c still defines main with TIGRIS_HARNESS_NO_MAIN:\n${syms}")
    endif()
  endif()
  # Input of the wrong size: exit 4, nothing run.
  run_expect("ex on a short input" 4 said ${WORK}/ex/build/ex ${EXAMPLE_PLAN})
  message(STATUS "codegen s8: ${done_plans} ok")

elseif(MODE STREQUAL "source")
  # Built from the source tree, no install: the int8 corpus plan when there,
  # else the example plan on zeros.
  if(plans)
    set(plan ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.tgrs)
    set(input ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.input.bin)
    set(expected ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.expected.bin)
  else()
    set(plan ${EXAMPLE_PLAN})
    set(input ${WORK}/zeros.bin)
    execute_process(COMMAND head -c 3072 /dev/zero OUTPUT_FILE ${input})
  endif()
  generate(${plan} s8 src)
  run_checked("configuring src" ${CMAKE_COMMAND} -S ${WORK}/src -B ${WORK}/src/build -G ${GENERATOR}
              -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_BUILD_TYPE=Release -DTIGRIS_RUNTIME_SOURCE_DIR=${SOURCE_DIR})
  run_checked("building src" ${CMAKE_COMMAND} --build ${WORK}/src/build)
  run_expect("src harness" 0 said ${WORK}/src/build/src ${input} ${WORK}/src.out.bin)
  run_checked("tigris run" ${TIGRIS} run ${plan} --input ${input} --output ${WORK}/src.ref.bin)
  same_bytes("source-built harness vs tigris run" ${WORK}/src.out.bin ${WORK}/src.ref.bin)
  if(expected)
    same_bytes("source-built harness vs the corpus" ${WORK}/src.out.bin ${expected})
  endif()
  message(STATUS "codegen from source: ok${said}")

elseif(MODE STREQUAL "stubs")
  if(NOT plans)
    message(STATUS "SKIPPED: no corpus at '${CORPUS}' (the int8 corpus plan is the device backends' case)")
    return()
  endif()
  set(plan ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.tgrs)
  set(input ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.input.bin)
  set(expected ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.expected.bin)
  foreach(c "arm|tigris-arm|TIGRIS_HAS_TIGRIS_ARM|TIGRIS_ARM_SCRATCH_BYTES"
            "cmsis|cmsis-nn|TIGRIS_HAS_CMSIS_NN|TIGRIS_CMSIS_NN_SCRATCH_BYTES"
            "xt|tigris-xtensa|TIGRIS_HAS_TIGRIS_XTENSA|TIGRIS_XTENSA_SCRATCH_BYTES"
            "esp|esp-nn|TIGRIS_HAS_ESP_NN|")
    string(REPLACE "|" ";" f "${c}")
    list(GET f 0 name)
    list(GET f 1 backend)
    list(GET f 2 has)
    list(GET f 3 scratch)
    generate(${plan} ${backend} ${name})
    strict_check(${name} ${has})
    # Without the backend in the runtime the harness does not compile.
    execute_process(COMMAND ${C_COMPILER} -std=c11 -fsyntax-only -I${WORK}/${name} -I${prefix}/include/tigris
                            ${WORK}/${name}/${name}.c RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
    if(rc EQUAL 0 OR NOT err MATCHES "generated for backend ${backend}: build it against a runtime with ${has}")
      message(FATAL_ERROR "${name}.c compiled without ${has}, or said something else:\n${err}")
    endif()
    set(stub -S ${STUB_DIR} ${common} "-DCMAKE_C_FLAGS=${SAN_FLAGS}" -DHARNESS_DIR=${WORK}/${name} -DNAME=${name}
             -DHAS_DEFINE=${has})
    if(scratch)
      # The stub needs 5000 bytes of scratch, more than the 4 KiB default.
      run_checked("configuring ${name}" ${CMAKE_COMMAND} -B ${WORK}/${name}/default ${stub} -DSTUB_SCRATCH=5000)
      run_checked("building ${name}" ${CMAKE_COMMAND} --build ${WORK}/${name}/default)
      run_expect("${name} with the default reserve" 12 said ${WORK}/${name}/default/harness ${input} ${WORK}/x.bin)
      if(NOT said MATCHES "rebuild with -D${scratch}=([0-9]+)")
        message(FATAL_ERROR "${name}: the scratch check did not say what to set:\n${said}")
      endif()
      set(want ${CMAKE_MATCH_1})
      math(EXPR less "${want} - 1")
      foreach(v ${less} ${want})
        run_checked("configuring ${name} ${v}" ${CMAKE_COMMAND} -B ${WORK}/${name}/s${v} ${stub} -DSTUB_SCRATCH=5000
                    "-DEXTRA_DEFS=${scratch}=${v}u")
        run_checked("building ${name} ${v}" ${CMAKE_COMMAND} --build ${WORK}/${name}/s${v})
      endforeach()
      run_expect("${name} with ${scratch}=${less}" 12 said ${WORK}/${name}/s${less}/harness ${input} ${WORK}/x.bin)
      run_expect("${name} with ${scratch}=${want}" 0 said ${WORK}/${name}/s${want}/harness ${input}
                 ${WORK}/${name}.out.bin)
      # A plan that fits the default reserve runs as generated.
      run_checked("configuring ${name} small" ${CMAKE_COMMAND} -B ${WORK}/${name}/fits ${stub} -DSTUB_SCRATCH=1000)
      run_checked("building ${name} small" ${CMAKE_COMMAND} --build ${WORK}/${name}/fits)
      run_expect("${name} within the default reserve" 0 said ${WORK}/${name}/fits/harness ${input} ${WORK}/fits.bin)
      same_bytes("${name} within the default reserve vs the corpus" ${WORK}/fits.bin ${expected})
    else()
      run_checked("configuring ${name}" ${CMAKE_COMMAND} -B ${WORK}/${name}/default ${stub})
      run_checked("building ${name}" ${CMAKE_COMMAND} --build ${WORK}/${name}/default)
      run_expect("${name}" 0 said ${WORK}/${name}/default/harness ${input} ${WORK}/${name}.out.bin)
    endif()
    same_bytes("${name} vs the corpus" ${WORK}/${name}.out.bin ${expected})
    message(STATUS "${backend}: ok")
  endforeach()
elseif(MODE STREQUAL "qemu")
  # The runtime cross-built for BOARD (cortex-m4 or cortex-m55) and
  # installed, the generated harness built against that package with
  # arm-none-eabi-gcc (picolibc, files over semihosting) and run on the QEMU
  # machine of that preset (docs/emu.md): mps2-an386 or mps3-an547.
  find_program(ARM_GCC arm-none-eabi-gcc)
  find_program(QEMU_ARM qemu-system-arm)
  if(NOT ARM_GCC OR NOT QEMU_ARM OR NOT plans)
    message(STATUS "SKIPPED: needs arm-none-eabi-gcc, qemu-system-arm and the corpus")
    return()
  endif()
  if(BOARD STREQUAL "cortex-m55")
    set(cpu "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard")
    set(machine mps3-an547)
    set(map "-Wl,--defsym=__flash=0x10000000 -Wl,--defsym=__flash_size=0x80000 -Wl,--defsym=__ram=0x30000000 -Wl,--defsym=__ram_size=0x80000")
  elseif(BOARD STREQUAL "cortex-m4")
    set(cpu "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
    set(machine mps2-an386)
    set(map "-Wl,--defsym=__flash=0x0 -Wl,--defsym=__flash_size=0x400000 -Wl,--defsym=__ram=0x20000000 -Wl,--defsym=__ram_size=0x400000")
  else()
    message(FATAL_ERROR "harness_test.cmake: BOARD must be cortex-m4 or cortex-m55, not '${BOARD}'")
  endif()
  set(toolchain -G ${GENERATOR} -DCMAKE_TOOLCHAIN_FILE=${SOURCE_DIR}/cmake/toolchains/arm-none-eabi.cmake
                "-DTIGRIS_ARM_CPU_FLAGS=${cpu}" -DCMAKE_BUILD_TYPE=Release)
  # The cmsis-nn backend needs the runtime built against Arm's CMSIS-NN:
  # THIRD_PARTY (the host build's TIGRIS_THIRD_PARTY_DIR) when it has it.
  set(cmsis OFF)
  if(THIRD_PARTY AND EXISTS ${THIRD_PARTY}/CMSIS-NN/Include/arm_nnfunctions.h)
    set(cmsis ON)
  else()
    message(STATUS "no CMSIS-NN under '${THIRD_PARTY}': the cmsis-nn harnesses are skipped")
  endif()
  run_checked("configuring the ${BOARD} runtime" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK}/core ${toolchain}
              -DTIGRIS_TARGET=${BOARD} -DTIGRIS_CURRENT_FLOAT_MATH=OFF "-DTIGRIS_THIRD_PARTY_DIR=${THIRD_PARTY}")
  run_checked("building the ${BOARD} runtime" ${CMAKE_COMMAND} --build ${WORK}/core --target tigris_core)
  run_checked("installing the ${BOARD} runtime" ${CMAKE_COMMAND} --install ${WORK}/core --prefix ${WORK}/runtime)
  set(link "--oslib=semihost --crt0=semihost ${map}")
  function(dev_build name dir defs)
    run_checked("configuring ${name} for ${BOARD}" ${CMAKE_COMMAND} -S ${WORK}/${name} -B ${dir} ${toolchain}
                -DCMAKE_PREFIX_PATH=${WORK}/runtime "-DCMAKE_C_FLAGS=${cpu} --specs=picolibc.specs ${defs}"
                "-DCMAKE_EXE_LINKER_FLAGS=${link}")
    run_checked("building ${name} for ${BOARD}" ${CMAKE_COMMAND} --build ${dir})
  endfunction()
  # picolibc's semihosting crt0 supplies argv[0]; the arguments follow.
  function(dev_run what code outvar elf in out)
    run_expect("${what}" ${code} said timeout 120 ${QEMU_ARM} -M ${machine} -display none -chardev stdio,id=sh0
               -semihosting-config enable=on,target=native,chardev=sh0,arg=${in},arg=${out} -kernel ${elf})
    set(${outvar} "${said}" PARENT_SCOPE)
  endfunction()
  # A shared int8 model with its weights read in place from the plan array
  # (XIP, 16-byte aligned base), on the Arm kernels: the host's bytes.
  set(kws ${MODELS}/kws_ref_model.tflite)
  if(EXISTS ${kws} AND cmsis)
    run_checked("tigris import --xip" ${TIGRIS} import ${kws} --xip -o ${WORK}/kws.tgrs)
    execute_process(COMMAND head -c 490 ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random.input.bin
                    OUTPUT_FILE ${WORK}/kws.in)
    run_checked("tigris run kws" ${TIGRIS} run ${WORK}/kws.tgrs --input ${WORK}/kws.in --output ${WORK}/kws.ref)
    generate(${WORK}/kws.tgrs cmsis-nn devkws)
    dev_build(devkws ${WORK}/devkws/build "")
    # With the 4 KiB default the harness either runs (CMSIS-NN's buffers for
    # kws fit) or stops and names the reserve; then it runs when built with it.
    execute_process(COMMAND timeout 120 ${QEMU_ARM} -M ${machine} -display none -chardev stdio,id=sh0
                    -semihosting-config enable=on,target=native,chardev=sh0,arg=${WORK}/kws.in,arg=${WORK}/x.bin
                    -kernel ${WORK}/devkws/build/devkws RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
    set(said "${o}${e}")
    if(rc EQUAL 12 AND said MATCHES "rebuild with -DTIGRIS_CMSIS_NN_SCRATCH_BYTES=([0-9]+)")
      set(want ${CMAKE_MATCH_1})
    elseif(rc EQUAL 0)
      set(want 4096)
    else()
      message(FATAL_ERROR "kws with the default reserve: exit ${rc}, and no reserve named:\n${said}")
    endif()
    message(STATUS "kws_ref_model with the 4 KiB default: ${said}")
    dev_build(devkws ${WORK}/devkws/want "-DTIGRIS_CMSIS_NN_SCRATCH_BYTES=${want}u")
    dev_run("kws on QEMU" 0 said ${WORK}/devkws/want/devkws ${WORK}/kws.in ${WORK}/kws.out)
    same_bytes("kws (XIP) on cmsis-nn vs tigris run" ${WORK}/kws.out ${WORK}/kws.ref)
    # The plan stays in flash (the code window: below 0x20000000), 16-byte aligned.
    find_program(ARM_NM arm-none-eabi-nm)
    if(ARM_NM)
      execute_process(COMMAND ${ARM_NM} ${WORK}/devkws/want/devkws OUTPUT_VARIABLE syms)
      if(NOT syms MATCHES "(^|\n)([0-9a-f]+) [tTrR] devkws_plan\n")
        message(FATAL_ERROR "no read-only devkws_plan symbol in the image")
      endif()
      set(addr ${CMAKE_MATCH_2})
      string(LENGTH "${addr}" len)
      if(NOT len EQUAL 8 OR NOT addr MATCHES "^[01][0-9a-f]*0$")
        message(FATAL_ERROR "devkws_plan at 0x${addr}: not in flash or not 16-byte aligned")
      endif()
      message(STATUS "devkws_plan at 0x${addr} (flash, 16-byte aligned)")
    endif()
    message(STATUS "kws_ref_model (XIP) on cmsis-nn, ${machine}, TIGRIS_CMSIS_NN_SCRATCH_BYTES=${want}: ${said}")
  endif()
  set(p ${CORPUS}/linebuf_s8_conv_sig_chain_v5.random)
  set(cases "devs8|s8|" "devarm|tigris-arm|TIGRIS_ARM_SCRATCH_BYTES")
  if(cmsis)
    list(APPEND cases "devcmsis|cmsis-nn|TIGRIS_CMSIS_NN_SCRATCH_BYTES")
  endif()
  foreach(c ${cases})
    string(REPLACE "|" ";" f "${c}")
    list(GET f 0 name)
    list(GET f 1 backend)
    list(GET f 2 scratch)
    generate(${p}.tgrs ${backend} ${name})
    dev_build(${name} ${WORK}/${name}/build "")
    dev_run("${name} on QEMU" 0 said ${WORK}/${name}/build/${name} ${p}.input.bin ${WORK}/${name}.out.bin)
    same_bytes("${name} on QEMU vs the corpus" ${WORK}/${name}.out.bin ${p}.expected.bin)
    message(STATUS "${backend} on ${machine}: ${said}")
    if(scratch)
      # The real kernels' scratch: a 16-byte reserve is too small, and the
      # harness names the value that is exactly enough.
      dev_build(${name} ${WORK}/${name}/tiny "-D${scratch}=16u")
      dev_run("${name} with a 16-byte reserve" 12 said ${WORK}/${name}/tiny/${name} ${p}.input.bin ${WORK}/x.bin)
      if(NOT said MATCHES "rebuild with -D${scratch}=([0-9]+)")
        message(FATAL_ERROR "${name}: the scratch check did not say what to set:\n${said}")
      endif()
      set(want ${CMAKE_MATCH_1})
      math(EXPR less "${want} - 1")
      dev_build(${name} ${WORK}/${name}/less "-D${scratch}=${less}u")
      dev_run("${name} with ${scratch}=${less}" 12 said ${WORK}/${name}/less/${name} ${p}.input.bin ${WORK}/x.bin)
      dev_build(${name} ${WORK}/${name}/want "-D${scratch}=${want}u")
      dev_run("${name} with ${scratch}=${want}" 0 said ${WORK}/${name}/want/${name} ${p}.input.bin ${WORK}/w.bin)
      same_bytes("${name} with the named reserve vs the corpus" ${WORK}/w.bin ${p}.expected.bin)
      message(STATUS "${backend}: ${scratch}=${want} is exactly enough")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "harness_test.cmake: unknown MODE ${MODE}")
endif()
