#!/usr/bin/env bash
# fetch-debian-source.sh PACKAGE DEST_DIR PATH... - put files of a Debian
# source package into DEST_DIR.
#
# Some build inputs exist only in Debian *source* packages: QEMU's
# qemu-plugin.h (Debian ships QEMU with plugin support but not the header)
# and newlib's current single-precision math (the arm-none-eabi binary
# package builds it only for FPUs with double precision; docs/emu.md). This
# fetches the package's upstream tarball with apt-get source into a private
# scratch directory (its own deb-src list, made from the system's deb
# entries, and its own apt state, so the system's apt configuration is left
# alone) and keeps only the files named.
#
# Each PATH is relative to the tarball's top directory (a shell glob is
# allowed) and lands at DEST_DIR/PATH. Nothing fetched is kept in the
# repository. Idempotent: does nothing when DEST_DIR/.fetched names the same
# package and paths.
set -euo pipefail

PKG="${1:?usage: $0 PACKAGE DEST_DIR PATH...}"
DEST="${2:?usage: $0 PACKAGE DEST_DIR PATH...}"
shift 2
[ "$#" -gt 0 ] || { echo "usage: $0 PACKAGE DEST_DIR PATH..." >&2; exit 2; }
STAMP="$PKG $*"
if [ -f "$DEST/.fetched" ] && [ "$(cat "$DEST/.fetched")" = "$STAMP" ]; then
  exit 0
fi
command -v apt-get >/dev/null || { echo "fetch-debian-source: no apt-get" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/lists/partial" "$WORK/cache/archives/partial" "$WORK/sources.d" "$WORK/src"

# deb-src entries for the suites the system already uses (deb822 and
# one-line formats both handled).
{
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -n 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/p; /^Types:/!p' "$f"
    echo
  done
} >"$WORK/sources.d/src.sources"
if [ -f /etc/apt/sources.list ]; then
  sed -n 's/^deb[[:space:]]\+/deb-src /p' /etc/apt/sources.list >"$WORK/sources.d/src.list"
fi

APT_OPTS=(
  -o "Dir::Etc::SourceList=/dev/null"
  -o "Dir::Etc::SourceParts=$WORK/sources.d"
  -o "Dir::State::Lists=$WORK/lists"
  -o "Dir::Cache=$WORK/cache"
  -o "APT::Sandbox::User=root"
  -o "Debug::NoLocking=1"
  -o "Acquire::Retries=3"
)
# Only deb-src stanzas matter; warnings about the others are harmless.
apt-get "${APT_OPTS[@]}" update -qq >/dev/null 2>"$WORK/update.err" || {
  cat "$WORK/update.err" >&2; exit 1; }
(cd "$WORK/src" && apt-get "${APT_OPTS[@]}" source --download-only -qq "$PKG" >/dev/null)
tarball="$(ls "$WORK/src/${PKG}"_*.orig.tar.* 2>/dev/null | head -n1)"
[ -n "$tarball" ] || { echo "fetch-debian-source: no $PKG orig tarball" >&2; exit 1; }
top="$({ tar tf "$tarball" || true; } | head -n1)"  # tar stops early: SIGPIPE
top="${top%%/*}"
patterns=()
for p in "$@"; do patterns+=("$top/$p"); done
tar xf "$tarball" -C "$WORK/src" --wildcards "${patterns[@]}" || {
  echo "fetch-debian-source: $tarball lacks one of: $*" >&2; exit 1; }
mkdir -p "$DEST"
cp -R "$WORK/src/$top/." "$DEST/"
echo "$STAMP" >"$DEST/.fetched"
echo "fetch-debian-source: $* from $(basename "$tarball") into $DEST"
