#!/usr/bin/env bash
# serve.sh - set up, build the host tools and run TiGrIS's main job.
#
#   ./scripts/serve.sh [args for `tigris serve`]
#
# Builds the `tigris` command and the example: a MobileNet-like int8 model
# the build writes with seeded weights and compiles with `tigris compile`
# for 8 KiB of fast memory (multi-operator stages, row bands, chains and
# spills; service/tools/write_example_model.cpp). Shows what the plan holds
# and how it was scheduled, then starts `tigris serve`: the gRPC service on
# 127.0.0.1:50051 and, once the viewer has been built (build/wasm/web), its
# pages on http://127.0.0.1:8080/ with the example open.
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
cmake --build "$BUILD" -j "$JOBS" --target tigris tigris_example_plan tigris_example_compiled tigris_example_client

# The viewer: the core in WebAssembly plus the web/ pages (wasm preset).
WASM_BUILD="${TIGRIS_BUILD_ROOT:-$ROOT/build}/wasm"
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
echo "serve: building the viewer in $WASM_BUILD"
if ! { cmake --preset wasm -B "$WASM_BUILD" >/dev/null && cmake --build "$WASM_BUILD" -j "$JOBS"; }; then
  echo "serve: the viewer did not build; starting the gRPC service without it" >&2
fi

TIGRIS="$BUILD/service/cli/tigris"
PLAN="$BUILD/examples/example_mobilenet.tgrs"
MODEL="$BUILD/examples/example_mobilenet.tflite"
[ -x "$TIGRIS" ] || { echo "serve: $TIGRIS was not built" >&2; exit 1; }
[ -f "$PLAN" ] || { echo "serve: $PLAN was not written" >&2; exit 1; }

echo "serve: the example model ($MODEL) against 8 KiB of fast memory:"
"$TIGRIS" analyze "$MODEL" -m 8K
echo "serve: the example plan ($PLAN):"
"$TIGRIS" inspect "$PLAN"

GRPC="${TIGRIS_GRPC:-127.0.0.1:50051}"
ARGS=(--grpc "$GRPC")
WEB="$WASM_BUILD/web"
HTTP="${TIGRIS_HTTP:-127.0.0.1:8080}"
if [ -f "$WEB/index.html" ]; then
  # so the viewer can open them by URL
  cp "$PLAN" "$WEB/example_mobilenet.tgrs"
  cp "$MODEL" "$WEB/example_mobilenet.tflite"
  cp "$BUILD/examples/example.tgrs" "$WEB/example.tgrs"
  ARGS+=(--web "$WEB" --http "$HTTP")
  echo "serve: viewer at http://$HTTP/?plan=example_mobilenet.tgrs"
fi
echo "serve: tigris serve ${ARGS[*]} $*"
echo "serve: try  /usr/bin/python3 examples/python/tigris_client.py $GRPC $PLAN"
exec "$TIGRIS" serve "${ARGS[@]}" "$@"
