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

# The viewer: the core in WebAssembly plus the web/ pages (wasm preset).
WASM_BUILD="${TIGRIS_BUILD_ROOT:-$ROOT/build}/wasm"
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
echo "serve: building the viewer in $WASM_BUILD"
if ! { cmake --preset wasm -B "$WASM_BUILD" >/dev/null && cmake --build "$WASM_BUILD" -j "$JOBS"; }; then
  echo "serve: the viewer did not build; starting the gRPC service without it" >&2
fi

TIGRIS="$BUILD/service/cli/tigris"
PLAN="$BUILD/examples/example.tgrs"
[ -x "$TIGRIS" ] || { echo "serve: $TIGRIS was not built" >&2; exit 1; }
[ -f "$PLAN" ] || { echo "serve: $PLAN was not written" >&2; exit 1; }

echo "serve: the example plan ($PLAN):"
"$TIGRIS" inspect "$PLAN"

GRPC="${TIGRIS_GRPC:-127.0.0.1:50051}"
ARGS=(--grpc "$GRPC")
WEB="$WASM_BUILD/web"
HTTP="${TIGRIS_HTTP:-127.0.0.1:8080}"
if [ -f "$WEB/index.html" ]; then
  cp "$PLAN" "$WEB/example.tgrs"  # so the viewer can open it by URL
  ARGS+=(--web "$WEB" --http "$HTTP")
  echo "serve: viewer at http://$HTTP/?plan=example.tgrs"
fi
echo "serve: tigris serve ${ARGS[*]} $*"
echo "serve: try  /usr/bin/python3 examples/python/tigris_client.py $GRPC $PLAN"
exec "$TIGRIS" serve "${ARGS[@]}" "$@"
