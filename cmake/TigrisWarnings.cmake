# Warnings for TiGrIS's own targets.
#
# Every target gets -Wall -Wextra (and whatever extra flags it names). -Werror
# is added only when TIGRIS_WERROR is ON: the presets and CI turn it on so a
# new warning fails our build, but a user, a packager or a pipeline that builds
# us with another compiler version or build type must not be stopped by a
# warning we have never seen (GCC 12 at -O3, for one, reports false positives
# inside libstdc++).
#
#   tigris_warnings(TARGET [EXTRA_FLAG...])
function(tigris_warnings target)
  set(flags -Wall -Wextra ${ARGN})
  if(TIGRIS_WERROR)
    list(APPEND flags -Werror)
  endif()
  target_compile_options(${target} PRIVATE ${flags})
endfunction()

# The same list for a single source file (COMPILE_OPTIONS is a ;-list).
function(tigris_source_warnings source)
  set(flags -Wall -Wextra ${ARGN})
  if(TIGRIS_WERROR)
    list(APPEND flags -Werror)
  endif()
  set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "${flags}")
endfunction()
