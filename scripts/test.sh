#!/usr/bin/env bash
# test.sh - set up, build every preset and run every test TiGrIS has.
#
#   ./scripts/test.sh
#
# Steps: scripts/setup.sh; configure + build the eight presets (the three
# Cortex-M boards and Xtensa lx106 first, because the host build's emu suite
# runs their firmware images; then host, the two sanitizer builds, wasm);
# the two plain builds a user makes without presets (`plain`: no build type;
# `plain-release`: CMAKE_BUILD_TYPE=Release, with ctest); ctest on each build
# that registers tests (host: everything; host-asan: unit + conformance;
# host-tsan: unit + thread); a bounded libFuzzer run of every fuzz target.
# Every configure, build, test and fuzz run counts as one check; the last line
# is "N passed, N failed[, N skipped]" and the exit status is non-zero when
# anything failed.
#
# Knobs (environment):
#   TIGRIS_BUILD_ROOT   where the build trees go (default: build/ in the repo)
#   TIGRIS_PRESETS      space-separated subset of presets to run (default: all)
#   TIGRIS_JOBS         parallel compile jobs (default: 2)
#   TIGRIS_FUZZ_SECONDS seconds for the plan-load fuzzer (default 60; others get a third)
#   TIGRIS_SKIP_SETUP=1 do not call scripts/setup.sh
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"  # cmake --preset reads CMakePresets.json from the working directory
BUILD_ROOT="${TIGRIS_BUILD_ROOT:-$ROOT/build}"
JOBS="${TIGRIS_JOBS:-2}"
FUZZ_SECONDS="${TIGRIS_FUZZ_SECONDS:-60}"
ALL_PRESETS="host host-asan host-tsan plain plain-release wasm cortex-m4 cortex-m7 cortex-m55 xtensa-lx106 fuzz"
PRESETS="${TIGRIS_PRESETS:-$ALL_PRESETS}"
LOGS="$BUILD_ROOT/logs"
SHARED="${TIGRIS_SHARED_DIR:-$ROOT/../shared}"

# ccache (when installed) keys on relative paths inside the checkout, so a
# fresh clone elsewhere reuses what an earlier build of the same sources made.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"

# Debian's emscripten runs its optimizer under node and needs Debian's acorn,
# which a node installed from elsewhere does not search for by default.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

passed=0
failed=0
skipped=0
failures=()
start_all=$(date +%s)

mkdir -p "$LOGS"

has_preset() { case " $PRESETS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# check NAME CMD...: run one check, log to $LOGS/NAME.log, count it.
check() {
  local name="$1"; shift
  local log="$LOGS/$name.log" t0 rc
  t0=$(date +%s)
  "$@" >"$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1))
    printf '  ok    %-40s %4ss\n' "$name" "$(( $(date +%s) - t0 ))"
  else
    failed=$((failed + 1))
    failures+=("$name")
    printf '  FAIL  %-40s %4ss  (rc %s, log %s)\n' "$name" "$(( $(date +%s) - t0 ))" "$rc" "$log"
    tail -n 40 "$log" | sed 's/^/        | /'
  fi
  return $rc
}

# run_ctest NAME BUILD_DIR [ctest args...]: every test counts on its own.
run_ctest() {
  local name="$1" dir="$2"; shift 2
  local log="$LOGS/$name.log" t0 p f s
  t0=$(date +%s)
  ctest --test-dir "$dir" --output-on-failure --no-tests=ignore --timeout 900 -j "$JOBS" "$@" >"$log" 2>&1
  local rc=$?
  # One result line per test: "  3/57 Test  #3: name ....   Passed  0.01 sec".
  p=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed ' "$log")
  s=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped|^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Skipped ' "$log")
  f=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log")
  f=$((f - p - s))
  # A ctest failure with no failed test line (crash while listing tests) still counts.
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  if [ "$f" -gt 0 ]; then
    failures+=("$name ($f test(s))")
    printf '  FAIL  %-40s %4ss  %s passed, %s failed, %s skipped (log %s)\n' "$name" "$(( $(date +%s) - t0 ))" "$p" "$f" "$s" "$log"
    grep -E '\*\*\*(Failed|Exception|Timeout)|Not Run|Failed +[0-9.]+ sec' "$log" | head -n 30 | sed 's/^/        | /'
  else
    printf '  ok    %-40s %4ss  %s passed, %s skipped\n' "$name" "$(( $(date +%s) - t0 ))" "$p" "$s"
  fi
}

# configure_and_build PRESET [targets...]: two checks; returns non-zero if either failed.
configure_and_build() {
  local preset="$1"; shift
  local dir="$BUILD_ROOT/$preset"
  local extra=()
  # The wasm build's tests (wasm_compiler_vs_cli, web_e2e_chromium) compare the
  # viewer's compiler with `tigris analyze -m` of this build root's host CLI.
  if [ "$preset" = wasm ]; then
    extra=("-DTIGRIS_HOST_CLI=$BUILD_ROOT/host/service/cli/tigris" "-DTIGRIS_SHARED_DIR=$SHARED")
  fi
  check "configure-$preset" cmake --preset "$preset" -B "$dir" "${extra[@]}" || return 1
  if [ $# -gt 0 ]; then
    check "build-$preset" cmake --build "$dir" -j "$JOBS" --target "$@"
  else
    check "build-$preset" cmake --build "$dir" -j "$JOBS"
  fi
}

echo "== TiGrIS tests ($(date -u '+%Y-%m-%d %H:%M UTC'), build root $BUILD_ROOT)"

if [ "${TIGRIS_SKIP_SETUP:-0}" != 1 ]; then
  check setup "$ROOT/scripts/setup.sh" || {
    echo "setup failed; nothing else can run"
    echo "$passed passed, $failed failed"
    exit 1
  }
fi

# lx106_helpers BUILD_DIR: Debian's lx106 libgcc lacks routines the ESP8266
# ROM supplies (soft-float, 32-bit and 64-bit division, ...); the lx106 images
# add them (tigris_lx106_libgcc, emu/boards/sim-lx106/libgcc.cmake). A core
# object needing a helper that neither defines would build cleanly and still
# fail to link into firmware once something pulls it in. Name each.
lx106_helpers() {
  local dir="$1" bad=0 obj syms have
  have=$({
    xtensa-lx106-elf-nm -g --defined-only "$(xtensa-lx106-elf-gcc -print-libgcc-file-name)" 2>/dev/null
    find "$dir/emu/CMakeFiles/tigris_lx106_libgcc.dir" -name '*.obj' -exec xtensa-lx106-elf-nm -g --defined-only {} + 2>/dev/null
  } | awk 'NF == 3 {print $3}' | sort -u)
  while read -r obj; do
    syms=$(xtensa-lx106-elf-nm -u "$obj" | awk '$2 ~ /^__/ {print $2}' | sort -u | comm -23 - <(echo "$have") | tr '\n' ' ')
    if [ -n "$syms" ]; then
      echo "${obj#"$dir"/}: $syms"
      bad=1
    fi
  done < <(find "$dir/core/CMakeFiles/tigris_core.dir" -name '*.obj' | sort)
  return $bad
}

# --- cross builds: the core (and whatever the target adds) must build -------
# The firmware presets come first: the host build's emu suite (ctest label
# emu) runs their images under QEMU, found in $BUILD_ROOT/<preset>/emu/.
cross_build() {
  local preset="$1"
  has_preset "$preset" || return 0
  echo "-- $preset"
  if configure_and_build "$preset"; then
    if [ "$preset" = xtensa-lx106 ]; then
      check lx106-no-missing-libgcc-helpers lx106_helpers "$BUILD_ROOT/$preset"
    fi
    # Firmware and wasm builds may register emulator or node tests.
    if [ -f "$BUILD_ROOT/$preset/CTestTestfile.cmake" ]; then
      run_ctest "ctest-$preset" "$BUILD_ROOT/$preset"
    fi
  fi
}
for preset in cortex-m4 cortex-m7 cortex-m55 xtensa-lx106; do
  cross_build "$preset"
done

# --- host builds and their tests -------------------------------------------
if has_preset host; then
  echo "-- host"
  if configure_and_build host; then
    run_ctest ctest-host "$BUILD_ROOT/host"
  fi
fi
# The sanitizer builds run the core's suites (unit, conformance, thread), so
# they build only what those suites run: the test programs, the fuzz replays
# and the seed writer. The service, import and gRPC code is built and tested
# by the host preset above.
sanitized_build() {
  local preset="$1" dir="$BUILD_ROOT/$1"
  check "configure-$preset" cmake --preset "$preset" -B "$dir" || return 1
  local targets=(tigris_core tigris_unit_tests tigris_conformance_tests tigris_thread_tests tigris_make_seeds)
  mapfile -t -O "${#targets[@]}" targets < <(ninja -C "$dir" -t targets all 2>/dev/null |
    sed -nE 's/^(fuzz_[A-Za-z0-9_]+_replay): phony$/\1/p' | sort -u)
  check "build-$preset" cmake --build "$dir" -j "$JOBS" --target "${targets[@]}"
}
if has_preset host-asan; then
  echo "-- host-asan"
  if sanitized_build host-asan; then
    run_ctest ctest-host-asan "$BUILD_ROOT/host-asan" -L 'unit|conformance'
  fi
fi
if has_preset host-tsan; then
  echo "-- host-tsan"
  if sanitized_build host-tsan; then
    run_ctest ctest-host-tsan "$BUILD_ROOT/host-tsan" -L 'unit|thread'
  fi
fi

# --- the plain way: no preset, the commands README.md gives a user ----------
# No TIGRIS_WERROR here (it is off for a plain configure, as for a user), the
# default generator and build type, and a Release tree whose tests must pass:
# the presets use RelWithDebInfo and Debug, so -O3 is only seen here. The
# tree without a build type builds what a user ships (the CLI with every
# service library, the examples); its tests are the same sources the
# Release tree builds and runs, so compiling them a third time would only
# cost CI time (about 12 of its minutes on two cores).
plain_build() {
  local name="$1" dir="$BUILD_ROOT/$1"; shift
  has_preset "$name" || return 1
  local targets=()
  [ "$name" = plain ] && targets=(--target tigris tigris_posix_example tigris_example_compiled tigris_example_client)
  echo "-- $name (cmake -S . -B ... $*)"
  check "configure-$name" cmake -S "$ROOT" -B "$dir" "$@" || return 1
  check "build-$name" cmake --build "$dir" --parallel "$JOBS" "${targets[@]}"
}
plain_build plain
if plain_build plain-release -DCMAKE_BUILD_TYPE=Release; then
  run_ctest ctest-plain-release "$BUILD_ROOT/plain-release"
fi

cross_build wasm

# --- fuzzing ----------------------------------------------------------------
if has_preset fuzz; then
  echo "-- fuzz"
  fuzz_dir="$BUILD_ROOT/fuzz"
  if check configure-fuzz cmake --preset fuzz -B "$fuzz_dir"; then
    # Only the fuzz targets: the rest of the tree is already covered above.
    mapfile -t targets < <(ninja -C "$fuzz_dir" -t targets all 2>/dev/null |
      sed -nE 's/^(fuzz_[A-Za-z0-9_]+): phony$/\1/p' | sort -u)
    if [ "${#targets[@]}" -eq 0 ] || [[ " ${targets[*]} " != *" fuzz_plan_load "* ]]; then
      check fuzz-targets-present false
    elif check build-fuzz cmake --build "$fuzz_dir" -j "$JOBS" --target "${targets[@]}"; then
      # Builder seeds come from the host build's seed writer when there is one.
      seeds="$fuzz_dir/seeds"
      mkdir -p "$seeds"
      if [ -x "$BUILD_ROOT/host/tests/fuzz/tigris_make_seeds" ]; then
        "$BUILD_ROOT/host/tests/fuzz/tigris_make_seeds" "$seeds" >/dev/null 2>&1 || true
      fi
      for t in "${targets[@]}"; do
        secs=$(( FUZZ_SECONDS / 3 ))
        [ "$t" = fuzz_plan_load ] && secs=$FUZZ_SECONDS
        work="$ROOT/tests/fuzz/corpus-work/$t"
        artifacts="$fuzz_dir/artifacts/$t/"
        mkdir -p "$work" "$artifacts"
        dirs=("$work" "$seeds")
        [ -d "$ROOT/tests/fuzz/regressions/$t" ] && dirs+=("$ROOT/tests/fuzz/regressions/$t")
        [ -d "$SHARED/corpus" ] && dirs+=("$SHARED/corpus")
        [ -d "$SHARED/corpus/negative" ] && dirs+=("$SHARED/corpus/negative")
        [ "$t" = fuzz_import ] && [ -d "$SHARED/models" ] && dirs+=("$SHARED/models")
        if ! check "fuzz-$t-${secs}s" "$fuzz_dir/tests/fuzz/$t" -max_total_time="$secs" -timeout=10 \
              -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" "${dirs[@]}"; then
          echo "        reproducers: $(ls "$artifacts" 2>/dev/null | tr '\n' ' ')"
        fi
      done
    fi
  fi
fi

elapsed=$(( $(date +%s) - start_all ))
echo "== done in $((elapsed / 60))m$((elapsed % 60))s"
if [ "${#failures[@]}" -gt 0 ]; then
  echo "failed:"
  printf '  %s\n' "${failures[@]}"
fi
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
