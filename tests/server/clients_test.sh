#!/usr/bin/env bash
# clients_test.sh TIGRIS EXAMPLE_CLIENT PLAN: start `tigris serve` on a free
# port, call it with the README's Python and C++ clients, stop it with SIGTERM.
set -euo pipefail
TIGRIS="$1" CLIENT="$2" PLAN="$3"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOG="$(mktemp)"
"$TIGRIS" serve --grpc 127.0.0.1:0 2>"$LOG" &
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -f "$LOG"' EXIT
PORT=""
for _ in $(seq 1 500); do
  PORT="$(sed -nE 's/.*on 127\.0\.0\.1:([0-9]+).*/\1/p' "$LOG" | head -n1)"
  [ -n "$PORT" ] && break
  sleep 0.01
done
[ -n "$PORT" ] || { echo "serve did not start:"; cat "$LOG"; exit 1; }
echo "== python client"
out="$(/usr/bin/python3 "$HERE/../../examples/python/tigris_client.py" "127.0.0.1:$PORT" "$PLAN")"
echo "$out"
grep -q '^outputs: \[' <<<"$out"
echo "== C++ client"
out="$("$CLIENT" "127.0.0.1:$PORT" "$PLAN")"
echo "$out"
grep -q '^outputs: ' <<<"$out"
kill -TERM $PID
wait $PID
grep -q 'rpc=Run status=OK' "$LOG"
echo "clients ok"
