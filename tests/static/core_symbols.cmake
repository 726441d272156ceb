cmake_minimum_required(VERSION 3.25)
# Proves the core makes no heap or stdio calls: lists the undefined symbols
# of every object in libtigris_core.a and fails on any allocator or stream
# function. Run as: cmake -DNM=... -DLIB=... -P core_symbols.cmake
execute_process(COMMAND ${NM} -u --format=posix ${LIB}
  OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}")
endif()
set(forbidden malloc calloc realloc free aligned_alloc posix_memalign memalign valloc
    _Znwm _Znam _ZdlPv _ZdaPv printf fprintf puts fputs fopen fwrite fread
    sprintf snprintf vsnprintf abort exit)
set(found "")
string(REPLACE "\n" ";" lines "${undefined}")
foreach(line IN LISTS lines)
  string(REGEX MATCH "^[^ ]+" sym "${line}")
  if(sym IN_LIST forbidden)
    list(APPEND found ${sym})
  endif()
endforeach()
list(LENGTH lines n)
if(n LESS 1)
  message(FATAL_ERROR "no symbols read from ${LIB}: the check would prove nothing")
endif()
if(found)
  list(REMOVE_DUPLICATES found)
  message(FATAL_ERROR "the core calls forbidden functions: ${found}")
endif()
message(STATUS "core library references no heap or stdio function (${n} undefined symbols checked)")
