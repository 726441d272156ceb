#!/bin/sh
# Runs the lx106 parity image under QEMU with a deterministic instruction
# clock, prints its report and the reference/accelerated ratio per op type.
# Usage: run_parity.sh IMAGE.elf [min_ratio_x100 for conv, depthwise, FC]
# Exit: the image's status (0 = every byte matched), 1 when a ratio is
# below the goal, 77 (skipped) without qemu-system-xtensa.
set -u
elf="$1"
goal="${2:-150}"
if ! command -v qemu-system-xtensa >/dev/null 2>&1; then
  echo "SKIP: qemu-system-xtensa not installed (apt-get install qemu-system-misc)"
  exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shift=5: one instruction is 32 ns; CCOUNT ticks at 40 MHz (25 ns), so 1 tick = 0.78125 instructions.
timeout 240 qemu-system-xtensa -M sim -cpu lx106 -display none -monitor none -semihosting \
  -icount shift=5 -kernel "$elf" >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || { echo "image exit status $rc"; exit 1; }
awk -v goal="$goal" '
  $1 == "bench" {
    ratio = $6 > 0 ? $4 / $6 : 0
    printf "ratio %s ref/accel %.2f (instructions ref %d, accel %d)\n", $2, ratio, $4 * 0.78125, $6 * 0.78125
    if (($2 == "conv" || $2 == "depthwise" || $2 == "fully_connected") && ratio * 100 < goal) bad = 1
  }
  END { exit bad }' "$out" || { echo "a conv/depthwise/FC ratio is below ${goal}/100"; exit 1; }
exit 0
