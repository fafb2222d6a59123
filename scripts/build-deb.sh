#!/usr/bin/env bash
# Builds livegrid_VERSION_ARCH.deb (into OUTDIR, default: the project root) from a release build whose Swift
# runtime is linked statically, so a server needs no Swift toolchain.
#
# Depends: dpkg-shlibdeps reads the binary's DT_NEEDED libraries. libav* and libheif are opened with dlopen on
# first use (CCodecLoader), which dpkg-shlibdeps cannot see, so a throw-away stub library that links exactly
# those sonames (the majors of the headers compiled against, as CCodecLoader's) is analysed alongside it and
# dpkg-shlibdeps turns them into package names with versions too. libpulse-simple (the sound, also dlopened) is
# only a Recommends: without it movies play silent.
#
# usage: build-deb.sh BUILD_DIR [OUTDIR]
set -euo pipefail
build="${1:?usage: build-deb.sh BUILD_DIR [OUTDIR]}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${2:-$root}"
for tool in dpkg-deb dpkg-shlibdeps cc pkg-config; do
  command -v "$tool" >/dev/null || { echo "build-deb: $tool is missing (apt-get install dpkg-dev gcc pkg-config)" >&2; exit 1; }
done
version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$root/Sources/livegrid/Livegrid.swift")"
arch="$(dpkg --print-architecture)"
[ -n "$version" ] || { echo "build-deb: no version found in Sources/livegrid/Livegrid.swift" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/livegrid_${version}_$arch"
GZIP_MAN=1 "$root/scripts/install.sh" "$stage/usr" "$build" >/dev/null
strip --strip-unneeded "$stage/usr/bin/livegrid"

# --- Depends --------------------------------------------------------------------------------------------------
mkdir -p "$work/shlibs/debian"
printf 'Source: livegrid\n\nPackage: livegrid\nArchitecture: any\n' > "$work/shlibs/debian/control"
dlopened=()
for lib in avutil swscale avcodec avformat avfilter swresample; do
  dlopened+=("-l:lib$lib.so.$(pkg-config --modversion "lib$lib" | cut -d. -f1)")
done
dlopened+=("-l:libheif.so.1")
echo 'void livegrid_dlopen_stub(void) {}' > "$work/stub.c"
cc -shared -fPIC -o "$work/shlibs/dlopened-stub.so" "$work/stub.c" -Wl,--no-as-needed "${dlopened[@]}"
cp "$stage/usr/bin/livegrid" "$work/shlibs/livegrid"
depends="$(cd "$work/shlibs" && dpkg-shlibdeps -O -e livegrid -e dlopened-stub.so 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

installed_size="$(du -sk "$stage/usr" | cut -f1)"
mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<EOF
Package: livegrid
Version: $version
Architecture: $arch
Maintainer: livegrid authors <livegrid@localhost>
Installed-Size: $installed_size
Depends: $depends
Recommends: libpulse0
Section: graphics
Priority: optional
Description: terminal browser for photo libraries that understands Live Photos
 A full-screen grid of thumbnails drawn with libchafa inside ncurses, a viewer, triage, and
 press-and-hold playback of Live Photos and Motion Photos right in the terminal, over SSH too.
 Command-line verbs scan, show, thumbnail, play, export, make-live, convert and extract
 libraries of JPEG, HEIC, PNG and movies. The Swift runtime is linked in: no toolchain needed.
EOF
chmod -R u+rwX,go+rX,go-w "$stage"
mkdir -p "$out"
deb="$out/livegrid_${version}_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
echo "Depends: $depends" >&2
