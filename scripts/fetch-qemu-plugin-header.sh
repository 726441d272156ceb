#!/usr/bin/env bash
# fetch-qemu-plugin-header.sh DEST_DIR - put QEMU's qemu-plugin.h into DEST_DIR.
#
# Debian ships the QEMU binaries with plugin support but not the plugin
# header; it is only in the qemu *source* package. This fetches that package
# with apt-get source into a private scratch directory (its own deb-src list,
# made from the system's deb entries, and its own apt state, so the system's
# apt configuration is left alone) and keeps only include/qemu/qemu-plugin.h.
# The header is used to build emu/plugin (our instruction counter); nothing of
# QEMU is kept in the repository. Idempotent: does nothing when DEST_DIR
# already has the header.
set -euo pipefail

DEST="${1:?usage: $0 DEST_DIR}"
if [ -f "$DEST/qemu-plugin.h" ]; then
  exit 0
fi
command -v apt-get >/dev/null || { echo "fetch-qemu-plugin-header: no apt-get" >&2; exit 1; }

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
)
# Only deb-src stanzas matter; warnings about the others are harmless.
apt-get "${APT_OPTS[@]}" update -qq >/dev/null 2>"$WORK/update.err" || {
  cat "$WORK/update.err" >&2; exit 1; }
(cd "$WORK/src" && apt-get "${APT_OPTS[@]}" source --download-only -qq qemu >/dev/null)
tarball="$(ls "$WORK/src"/qemu_*.orig.tar.* | head -n1)"
[ -n "$tarball" ] || { echo "fetch-qemu-plugin-header: no qemu orig tarball" >&2; exit 1; }
tar xf "$tarball" -C "$WORK/src" --wildcards '*/include/qemu/qemu-plugin.h'
header="$(find "$WORK/src" -path '*/include/qemu/qemu-plugin.h' | head -n1)"
[ -n "$header" ] || { echo "fetch-qemu-plugin-header: no qemu-plugin.h in $tarball" >&2; exit 1; }
mkdir -p "$DEST"
cp "$header" "$DEST/qemu-plugin.h.tmp"
mv "$DEST/qemu-plugin.h.tmp" "$DEST/qemu-plugin.h"
echo "fetch-qemu-plugin-header: $DEST/qemu-plugin.h ($(basename "$tarball"))"
