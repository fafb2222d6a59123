#!/usr/bin/env bash
# Tests livegrid_*.deb the way a user installs it on a server: in a fresh minimal Debian 12 root
# (debootstrap --variant=minbase bookworm, cached in ROOT_CACHE and copied for every run so each install starts
# clean), `apt install ./livegrid_VERSION_amd64.deb`, then version, scan, show, thumbnail and play on a JPEG, a
# HEIC and a movie. Before that, without a chroot: the package's contents (dpkg-deb -c) and that its Depends
# resolve every library ldd reports.
#
# usage: deb-test.sh DEB     (root: needs debootstrap, chroot, mount; network only to the Debian mirror)
set -euo pipefail
deb="$(realpath "${1:?usage: deb-test.sh DEB}")"
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${ROOT_CACHE:-/var/tmp/livegrid-bookworm}"
# The mirror apt is configured with (deb822 or one-line sources), else Debian's.
mirror="$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)"
mirror="${mirror:-http://deb.debian.org/debian}"
failures=0
check() {  # DESCRIPTION COMMAND...
  local description=$1; shift
  if "$@"; then echo "ok    $description"; else echo "FAIL  $description"; failures=$((failures + 1)); fi
}

# --- 1. contents -----------------------------------------------------------------------------------------------
contents="$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')"
for path in /usr/bin/livegrid /usr/share/man/man1/livegrid.1.gz /usr/share/man/man1/livegrid.scan.1.gz \
            /usr/share/man/man1/livegrid.show.1.gz /usr/share/bash-completion/completions/livegrid \
            /usr/share/zsh/vendor-completions/_livegrid /usr/share/fish/vendor_completions.d/livegrid.fish \
            /usr/share/doc/livegrid/README.md /usr/share/doc/livegrid/config.toml.example \
            /usr/share/doc/livegrid/copyright /usr/share/applications/livegrid.desktop; do
  check "the package holds $path" grep -qx "$path" <<<"$contents"
done
echo "Depends: $(dpkg-deb -f "$deb" Depends)"
unpacked="$(mktemp -d)"
dpkg-deb -x "$deb" "$unpacked"
if command -v desktop-file-validate >/dev/null; then
  check "the desktop entry validates" desktop-file-validate "$unpacked/usr/share/applications/livegrid.desktop"
fi
check "the desktop entry opens images in a terminal" bash -c 'grep -qx "Terminal=true" "$1" && grep -q "^MimeType=.*image/jpeg;.*image/heic;" "$1"' _ \
  "$unpacked/usr/share/applications/livegrid.desktop"
check "the bash completion completes livegrid's subcommands" bash -c \
  'source "$1"; COMP_WORDS=(livegrid sh); COMP_CWORD=1; COMP_LINE="livegrid sh"; COMP_POINT=11; _livegrid livegrid sh livegrid >/dev/null 2>&1; [[ " ${COMPREPLY[*]} " == *" show "* ]]' _ \
  "$unpacked/usr/share/bash-completion/completions/livegrid"
check "the man page renders" bash -c 'MANWIDTH=80 man -l "$1" 2>/dev/null | grep -q "livegrid show"' _ "$unpacked/usr/share/man/man1/livegrid.show.1.gz"
rm -rf "$unpacked"

# --- 2. a fresh minimal Debian 12 ------------------------------------------------------------------------------
if [ ! -x "$cache/usr/bin/apt-get" ]; then
  echo "debootstrap --variant=minbase bookworm into $cache (once; from $mirror)"
  rm -rf "$cache.new"
  debootstrap --variant=minbase bookworm "$cache.new" "$mirror" >/dev/null
  mv "$cache.new" "$cache"
fi
work="$(mktemp -d /var/tmp/livegrid-deb-test.XXXXXX)"
chroot_dir="$work/root"
cleanup() {
  for m in dev/pts dev proc; do umount "$chroot_dir/$m" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cp -a "$cache" "$chroot_dir"
mount -t proc proc "$chroot_dir/proc"
mount --bind /dev "$chroot_dir/dev"
mount --bind /dev/pts "$chroot_dir/dev/pts"
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
if [ -f /etc/apt/sources.list.d/debian.sources ]; then       # bookworm, -updates and -security, as on the host
  rm -f "$chroot_dir/etc/apt/sources.list"
  cp /etc/apt/sources.list.d/debian.sources "$chroot_dir/etc/apt/sources.list.d/"
fi
in_root() { chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

check "no Swift toolchain in the fresh root" test ! -e "$chroot_dir/opt/swift" -a -z "$(find "$chroot_dir/usr/lib" -name 'libswiftCore.so' -print -quit)"
cp "$deb" "$chroot_dir/tmp/"
in_root apt-get update -qq
check "apt install ./$(basename "$deb")" in_root env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")"

# --- 3. what ldd reports is all resolved by Depends -------------------------------------------------------------
missing="$(in_root ldd /usr/bin/livegrid | grep 'not found' || true)"
check "every library ldd reports is installed (Depends)${missing:+: $missing}" test -z "$missing"
check "no Swift runtime library is needed" bash -c "! chroot '$chroot_dir' ldd /usr/bin/livegrid | grep -q libswift"
for soname in "libavcodec.so.$(pkg-config --modversion libavcodec | cut -d. -f1)" \
              "libavformat.so.$(pkg-config --modversion libavformat | cut -d. -f1)" \
              "libswscale.so.$(pkg-config --modversion libswscale | cut -d. -f1)" \
              "libavutil.so.$(pkg-config --modversion libavutil | cut -d. -f1)" libheif.so.1; do
  check "the library opened on first use, $soname, is installed" bash -c "chroot '$chroot_dir' ldconfig -p | grep -q '$soname '"
done

# --- 4. use it --------------------------------------------------------------------------------------------------
media="$chroot_dir/tmp/media"
mkdir -p "$media"
cp "$root/Tests/Fixtures/train.jpg" "$root/Tests/Fixtures/train.mov" "$media/"
ffmpeg -nostdin -v error -f lavfi -i "testsrc2=s=640x480" -frames:v 1 "$work/picture.png"
heif-enc -q 50 "$work/picture.png" -o "$media/picture.heic" >/dev/null
lg() { in_root env TERM=xterm-256color COLUMNS=80 LINES=24 livegrid "$@"; }

version="$(lg version 2>&1)" || true
echo "$version" | sed 's/^/      /'
check "livegrid version names livegrid and libavcodec" bash -c 'grep -q "^livegrid " <<<"$1" && grep -qi "avcodec" <<<"$1"' _ "$version"
scan="$(lg scan /tmp/media 2>&1)" || true
echo "$scan" | sed 's/^/      /'
check "scan pairs the Live Photo and lists the HEIC" bash -c 'grep -q "^live .*train.jpg + train.mov" <<<"$1" && grep -q "picture.heic" <<<"$1"' _ "$scan"
for f in train.jpg picture.heic train.mov; do
  status=0; shown="$(lg show --size 40x12 --format symbols "/tmp/media/$f" 2>&1)" || status=$?
  check "show $f draws a picture (status $status, $(wc -l <<<"$shown") lines)" test "$status" = 0 -a "$(wc -l <<<"$shown")" -ge 10
  status=0; message="$(lg thumbnail "/tmp/media/$f" -o "/tmp/media/$f.thumb.png" 2>&1 >/dev/null)" || status=$?
  if [ "$f" = train.mov ]; then   # `thumbnail` is for pictures: a movie gets a plain refusal, not a crash
    check "thumbnail $f refuses a movie in a sentence (status $status: $message)" \
      bash -c 'test "$1" = 1 && grep -q "a movie, not a still" <<<"$2"' _ "$status" "$message"
  else
    check "thumbnail $f writes a PNG (status $status)" bash -c "test $status = 0 && head -c 8 '$media/$f.thumb.png' | grep -q PNG"
  fi
done
for f in train.mov train.jpg; do
  status=0
  stats="$(in_root env TERM=xterm-256color timeout 30 livegrid play "/tmp/media/$f" --size 40x12 --format symbols --stats 2>&1 >/dev/null)" || status=$?
  echo "$stats" | tail -3 | sed 's/^/      /'
  check "play $f plays its movie (status $status)" test "$status" = 0
done

echo
if [ "$failures" = 0 ]; then echo "deb-test: all checks passed"; else echo "deb-test: $failures check(s) failed"; exit 1; fi
