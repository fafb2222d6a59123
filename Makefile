# livegrid: build, run, test and benchmark on Debian.
SHELL := /bin/bash
SWIFT ?= swift
LIBRARY ?=

# System libraries the build links (C shims in Sources/C*), and tools the tests drive.
BUILD_PACKAGES := pkg-config libncurses-dev ncurses-term libpng-dev libchafa-dev libglib2.0-dev libavformat-dev libavcodec-dev \
                  libswscale-dev libavutil-dev libheif-dev libturbojpeg0-dev libcurl4-openssl-dev
TEST_PACKAGES  := tmux ffmpeg libimage-exiftool-perl nginx libnginx-mod-http-dav-ext python3 curl time libheif-examples openssl \
                  openssh-server openssh-client
BENCH_PACKAGES := chafa timg hyperfine
# Real terminal emulators under a virtual X server for scripts/screenshots.sh (foot is Wayland-only).
SCREENSHOT_PACKAGES := xvfb xterm x11-apps x11-utils imagemagick xdotool kitty libgl1-mesa-dri

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps test-deps bench-deps screenshots-deps screenshots build release run test bench fuzz demo-library clean

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

deps:
	$(call apt_install,$(BUILD_PACKAGES),reset-build)

test-deps: deps
	$(call apt_install,$(TEST_PACKAGES))

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
	$(SWIFT) build -c release

# Opens the browser on LIBRARY, or on a demo library made from the fixtures.
run: release demo-library
	.build/release/livegrid $(if $(LIBRARY),"$(LIBRARY)",.build/demo-library)

demo-library:
	@scripts/make-demo-library.sh .build/demo-library

# XCTest only (no Swift Testing suites here, so its "0 tests" banner would only mislead), then one plain
# closing line with the counts.
test: test-deps
	$(SWIFT) build --build-tests
	@mkdir -p .build; set -o pipefail; \
	$(SWIFT) test --skip-build --disable-swift-testing 2>&1 | tee .build/test.log \
	  | grep -Ev '^Test Case .* (started|passed)'; status=$$?; \
	passed=$$(grep -cE "^Test Case .* passed" .build/test.log); \
	failed=$$(grep -cE "^Test Case .* failed" .build/test.log); \
	skipped=$$(grep -cE "^Test Case .* skipped" .build/test.log); \
	echo "tests: $$passed passed, $$failed failed, $$skipped skipped"; exit $$status

bench: bench-deps release
	Benchmarks/run-all.sh

fuzz: deps
	Benchmarks/fuzz.sh

clean:
	rm -rf .build
