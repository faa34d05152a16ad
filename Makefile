# stocktake: `make run` reconciles the bundled sample account, `make test` runs every check.
# Both install what is missing first (run as root on Debian), so they work from a fresh clone.

SWIFT      ?= swift
BUILD_DIR  ?= .build
OUT        ?= out
STATE      ?= state
AS_OF      ?=
STOCKTAKE  := $(BUILD_DIR)/debug/stocktake

# Debian packages the build needs (libcurl is the only HTTP stack), and those only the tests need: Apache httpd
# with mod_dav serves sheets over TLS with a CA made by openssl, python3 runs the Google API emulator, cron
# (`crontab -n`) checks cron/crontab, and LibreOffice saves a central sheet the way a clerk's spreadsheet does.
APT_PACKAGES      := libcurl4-openssl-dev pkg-config
APT_TEST_PACKAGES := apache2 openssl python3 cron libreoffice-calc-nogui

.PHONY: all build run test lint deps test-deps install-missing toolchain clean help

all: build

help:
	@echo "make run    build, run the nightly job over Jobs/ (the sample accounts), print where the reports are"
	@echo "make test   lint, build and run every test"

toolchain:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
	  echo "make: the Swift toolchain (swift 6) is not on PATH. Install it (https://www.swift.org/install/linux/) and try again." >&2; \
	  exit 69; }

deps: toolchain
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(APT_PACKAGES)"

test-deps: deps
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(APT_TEST_PACKAGES)"

install-missing:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "make: run as root to install:$$missing" >&2; exit 77; fi; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build --product stocktake

run: build
	$(STOCKTAKE) run --jobs Jobs --state $(STATE) $(if $(AS_OF),--as-of $(AS_OF))
	@echo
	@echo "Each account's latest reports are in $(STATE)/<account>/latest/: open report.html, or read summary.txt"

lint: toolchain
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

# STOCKTAKE_REQUIRE_SERVERS makes a test whose local server (Apache, the emulator) cannot start fail, not skip.
test: test-deps lint
	$(SWIFT) build --build-tests
	STOCKTAKE_REQUIRE_SERVERS=1 $(SWIFT) test --skip-build

clean:
	rm -rf $(BUILD_DIR) $(OUT) $(STATE)
