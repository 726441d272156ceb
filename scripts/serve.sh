#!/usr/bin/env bash
# serve.sh - set up, build the host tools and run TiGrIS's main job.
#
#   ./scripts/serve.sh [args for `tigris serve`]
#
# Builds the `tigris` command and the example plan (a small conv -> relu ->
# pool model written by the build), then starts `tigris serve` on it. Until
# the CLI has a serve command, it shows what the example plan holds with
# `tigris inspect` instead.
#
# Environment: TIGRIS_BUILD_ROOT (default build/), TIGRIS_JOBS (default 2),
# TIGRIS_SKIP_SETUP=1 to skip scripts/setup.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"  # cmake --preset reads CMakePresets.json from the working directory
BUILD="${TIGRIS_BUILD_ROOT:-$ROOT/build}/host"
JOBS="${TIGRIS_JOBS:-2}"

if [ "${TIGRIS_SKIP_SETUP:-0}" != 1 ]; then
  "$ROOT/scripts/setup.sh"
fi

echo "serve: building the host tools in $BUILD"
cmake --preset host -B "$BUILD" >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target tigris tigris_example_plan

TIGRIS="$BUILD/service/cli/tigris"
PLAN="$BUILD/examples/example.tgrs"
[ -x "$TIGRIS" ] || { echo "serve: $TIGRIS was not built" >&2; exit 1; }
[ -f "$PLAN" ] || { echo "serve: $PLAN was not written" >&2; exit 1; }

# CLI11 answers --help for any word, so look for serve among the subcommands.
if "$TIGRIS" --help 2>/dev/null | grep -qE '^ +serve( |$)'; then
  echo "serve: tigris serve $PLAN $*"
  exec "$TIGRIS" serve "$PLAN" "$@"
fi

echo "serve: the example plan ($PLAN):"
exec "$TIGRIS" inspect "$PLAN"
