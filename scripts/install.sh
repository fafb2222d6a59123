#!/usr/bin/env bash
# Installs livegrid under PREFIX: the binary, man pages and shell completions generated from the command
# definitions (swift-argument-parser's generate-manual tool and --generate-completion-script, so they never
# drift from `livegrid help`), the README, the example config, the licence and the desktop entry.
#
# usage: install.sh PREFIX BUILD_DIR      (BUILD_DIR holds the built `livegrid` and `generate-manual`)
#        GZIP_MAN=1 compresses the man pages (what a Debian package wants).
set -euo pipefail
prefix="${1:?usage: install.sh PREFIX BUILD_DIR}"
build="${2:?usage: install.sh PREFIX BUILD_DIR}"
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="$build/livegrid"
manual_tool="$build/generate-manual"
for f in "$binary" "$manual_tool"; do
  [ -x "$f" ] || { echo "install: $f is not built (make install builds it)" >&2; exit 1; }
done

# The man pages' date is the last commit's (or SOURCE_DATE_EPOCH's): the same sources make the same pages.
epoch="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}"
date="$(date -u -d "@$epoch" +%Y-%m-%d)"

install -Dm755 "$binary" "$prefix/bin/livegrid"

man1="$prefix/share/man/man1"
mkdir -p "$man1"
pages="$(mktemp -d)"
trap 'rm -rf "$pages"' EXIT
"$manual_tool" "$binary" --multi-page --date "$date" --output-directory "$pages" >/dev/null
rm -f "$pages/livegrid.help.1"     # `livegrid help` is ArgumentParser's own, nothing to read about
for page in "$pages"/*.1; do
  install -m644 "$page" "$man1/"
  [ "${GZIP_MAN:-0}" = 1 ] && gzip -9nf "$man1/$(basename "$page")"
done

"$binary" --generate-completion-script bash | install -Dm644 /dev/stdin "$prefix/share/bash-completion/completions/livegrid"
"$binary" --generate-completion-script zsh  | install -Dm644 /dev/stdin "$prefix/share/zsh/vendor-completions/_livegrid"
"$binary" --generate-completion-script fish | install -Dm644 /dev/stdin "$prefix/share/fish/vendor_completions.d/livegrid.fish"

doc="$prefix/share/doc/livegrid"
install -Dm644 "$root/README.md" "$doc/README.md"
install -Dm644 "$root/Resources/config.toml" "$doc/config.toml.example"
install -Dm644 "$root/packaging/copyright" "$doc/copyright"
install -Dm644 "$root/packaging/livegrid.desktop" "$prefix/share/applications/livegrid.desktop"
echo "installed livegrid into $prefix"
