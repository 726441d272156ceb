#!/bin/sh
# run_until_verdict.sh TIMEOUT QEMU ARGS... - run a QEMU parity image and stop
# it once it printed its verdict line ("PARITY OK" / "PARITY FAILED").
# QEMU 7.2 does not leave on the guest's semihosting exit when -icount is on
# (it keeps running until killed), so the verdict line, not the exit status,
# decides: exit 0 for "PARITY OK", 1 otherwise (also on timeout).
limit="$1"; shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" >"$log" 2>&1 &
pid=$!
i=0
while [ "$i" -lt "$((limit * 10))" ]; do
  if grep -q '^PARITY \(OK\|FAILED\)' "$log" || ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
  i=$((i + 1))
done
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
cat "$log"
grep -q '^PARITY OK' "$log"
