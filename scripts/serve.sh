#!/usr/bin/env bash
# serve.sh - set up, build the host tools and run TiGrIS's main job.
#
#   ./scripts/serve.sh [args for `tigris serve`]
#
# Builds the `tigris` command and the example plan (a small conv -> relu ->
# pool model written by the build), shows what the plan holds, then starts
# `tigris serve`: the gRPC service on 127.0.0.1:50051 and, once the viewer
# has been built (build/wasm/web), its pages on http://127.0.0.1:8080/.
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
cmake --build "$BUILD" -j "$JOBS" --target tigris tigris_example_plan tigris_example_client

TIGRIS="$BUILD/service/cli/tigris"
PLAN="$BUILD/examples/example.tgrs"
[ -x "$TIGRIS" ] || { echo "serve: $TIGRIS was not built" >&2; exit 1; }
[ -f "$PLAN" ] || { echo "serve: $PLAN was not written" >&2; exit 1; }

echo "serve: the example plan ($PLAN):"
"$TIGRIS" inspect "$PLAN"

ARGS=(--grpc "${TIGRIS_GRPC:-127.0.0.1:50051}")
WEB="${TIGRIS_BUILD_ROOT:-$ROOT/build}/wasm/web"
if [ -d "$WEB" ]; then
  ARGS+=(--web "$WEB" --http "${TIGRIS_HTTP:-127.0.0.1:8080}")
fi
echo "serve: tigris serve ${ARGS[*]} $*"
echo "serve: try  /usr/bin/python3 examples/python/tigris_client.py 127.0.0.1:50051 $PLAN"
exec "$TIGRIS" serve "${ARGS[@]}" "$@"
