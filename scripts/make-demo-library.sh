#!/usr/bin/env bash
# Makes the default library `make run` opens: the committed fixtures, plus ../shared/fixtures when present.
# Files are hard-linked (or copied) so the originals are never touched.
set -euo pipefail
dest="${1:?usage: make-demo-library.sh DIR}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$dest"
link() { ln -f "$1" "$dest/$2" 2>/dev/null || cp -f "$1" "$dest/$2"; }
for f in "$root"/Tests/Fixtures/*.{jpg,jpeg,mov,heic,HEIC,png}; do
  [ -f "$f" ] && link "$f" "$(basename "$f")"
done
shared="$root/../shared/fixtures"
if [ -d "$shared" ]; then
  for f in "$shared"/*.{jpg,jpeg,mov,heic,HEIC} "$shared"/limitpoint/*; do
    [ -f "$f" ] && link "$f" "$(basename "$f")"
  done
fi
echo "demo library: $dest ($(ls "$dest" | wc -l) files)"
