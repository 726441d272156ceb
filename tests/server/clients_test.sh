#!/usr/bin/env bash
# clients_test.sh TIGRIS EXAMPLE_CLIENT PLAN: start `tigris serve` on a free
# port, call it with the README's Python and C++ clients, stop it with SIGTERM;
# then the same over TLS with a bearer token (a throw-away CA and server
# certificate made here with openssl), and without the token (refused).
set -euo pipefail
TIGRIS="$1" CLIENT="$2" PLAN="$3"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY_CLIENT="$HERE/../../examples/python/tigris_client.py"
TMP="$(mktemp -d)"
LOG="$TMP/serve.log"
PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$TMP"' EXIT

# start_serve ARGS...: starts serve in the background, sets PID and PORT.
start_serve() {
  "$TIGRIS" serve --grpc 127.0.0.1:0 "$@" 2>"$LOG" &
  PID=$!
  PORT=""
  for _ in $(seq 1 500); do
    PORT="$(sed -nE 's/.*on 127\.0\.0\.1:([0-9]+).*/\1/p' "$LOG" | head -n1)"
    [ -n "$PORT" ] && break
    sleep 0.01
  done
  [ -n "$PORT" ] || { echo "serve did not start:"; cat "$LOG"; exit 1; }
}

stop_serve() {
  kill -TERM $PID
  wait $PID
  PID=""
  grep -q 'rpc=Run status=OK' "$LOG"
}

start_serve
echo "== python client"
out="$(/usr/bin/python3 "$PY_CLIENT" "127.0.0.1:$PORT" "$PLAN")"
echo "$out"
grep -q '^outputs: \[' <<<"$out"
echo "== C++ client"
out="$("$CLIENT" "127.0.0.1:$PORT" "$PLAN")"
echo "$out"
grep -q '^outputs: ' <<<"$out"
stop_serve

echo "== over TLS with a bearer token"
(
  cd "$TMP"
  key="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
  openssl req -x509 $key -keyout ca.key -out ca.crt -days 2 -subj /CN=clients-test-ca \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
  openssl req $key -keyout server.key -out server.csr -subj /CN=localhost
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
  openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext -out server.crt
  printf '# test token\nclients-test-token\n' > tokens
) > "$TMP/openssl.log" 2>&1 || { cat "$TMP/openssl.log"; exit 1; }
start_serve --tls-cert "$TMP/server.crt" --tls-key "$TMP/server.key" --token-file "$TMP/tokens"
grep -q '(TLS, bearer token)' "$LOG"
out="$(/usr/bin/python3 "$PY_CLIENT" --tls-ca "$TMP/ca.crt" --token clients-test-token "127.0.0.1:$PORT" "$PLAN")"
echo "$out"
grep -q '^outputs: \[' <<<"$out"
out="$("$CLIENT" --tls-ca "$TMP/ca.crt" --token clients-test-token "127.0.0.1:$PORT" "$PLAN")"
echo "$out"
grep -q '^outputs: ' <<<"$out"
# No token: the C++ client's Inspect is refused (exit 2), nothing runs.
rc=0
"$CLIENT" --tls-ca "$TMP/ca.crt" "127.0.0.1:$PORT" "$PLAN" 2>"$TMP/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'missing bearer token' "$TMP/err" || { echo "no-token call: rc=$rc"; cat "$TMP/err"; exit 1; }
stop_serve
grep -q 'status=UNAUTHENTICATED' "$LOG"
echo "clients ok"
