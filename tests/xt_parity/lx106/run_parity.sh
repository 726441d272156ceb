#!/bin/sh
# Runs the lx106 parity image under QEMU with a deterministic instruction
# clock, prints its report and the reference/accelerated instruction ratio
# per op type: exact counts from the emu count plugin when PLUGIN exists
# (four marks per benchmark shape), otherwise CCOUNT ticks x 0.78125.
# Usage: run_parity.sh IMAGE.elf [PLUGIN.so] [min ratio x100 for conv, depthwise, FC]
# Exit: 0 when every byte matched and the ratios meet the goal; 1 otherwise;
# 77 (skipped) without qemu-system-xtensa.
set -u
elf="$1"
plugin="${2:-}"
goal="${3:-150}"
if ! command -v qemu-system-xtensa >/dev/null 2>&1; then
  echo "SKIP: qemu-system-xtensa not installed (apt-get install qemu-system-misc)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
set --
if [ -n "$plugin" ] && [ -f "$plugin" ]; then
  set -- -plugin "$plugin,out=$dir/counts.txt,mark=tigris_emu_mark"
else
  echo "note: no count plugin at '${plugin}': ratios from CCOUNT"
fi
# shift=5: one instruction is 32 ns; CCOUNT ticks at 40 MHz (25 ns), so 1 tick = 0.78125 instructions.
timeout 240 qemu-system-xtensa -M sim -cpu lx106 -display none -monitor none -semihosting \
  -icount shift=5 "$@" -kernel "$elf" >"$dir/out.txt" 2>&1
rc=$?
cat "$dir/out.txt"
[ $rc -eq 0 ] || { echo "image exit status $rc"; exit 1; }
[ -f "$dir/counts.txt" ] || : >"$dir/counts.txt"
awk -v goal="$goal" '
  FNR == NR { if (started) m[nm++] = $1; if ($1 == "marks") started = 1; next }
  $1 == "shape" {
    if (nm >= 4 * (ns + 1)) { r = m[4*ns+1] - m[4*ns]; a = m[4*ns+3] - m[4*ns+2]; how = "exact" }
    else { r = $6 * 0.78125; a = $8 * 0.78125; how = "ccount" }
    ns++
    printf "instructions %s %s ref %d accel %d ratio %.2f (%s)\n", $2, $4, r, a, a ? r / a : 0, how
    R[$2] += r; A[$2] += a
  }
  END {
    for (k in R) {
      printf "ratio %s ref/accel %.2f (instructions ref %d, accel %d)\n", k, A[k] ? R[k] / A[k] : 0, R[k], A[k]
      if ((k == "conv" || k == "depthwise" || k == "fully_connected") && R[k] * 100 < goal * A[k]) bad = 1
    }
    exit bad
  }' "$dir/counts.txt" "$dir/out.txt" || { echo "a conv/depthwise/FC ratio is below ${goal}/100"; exit 1; }
exit 0
