# stocktake: `make run` reconciles the bundled sample account, `make test` runs every check.
# Both install what is missing first (run as root on Debian), so they work from a fresh clone.

SWIFT      ?= swift
BUILD_DIR  ?= .build
OUT        ?= out
AS_OF      ?=
SAMPLE     := samples/vt-nis
STOCKTAKE  := $(BUILD_DIR)/debug/stocktake

# Debian packages the build and the tests need (none beyond the Swift toolchain yet).
APT_PACKAGES := libcurl4-openssl-dev pkg-config

.PHONY: all build run test lint deps toolchain clean help

all: build

help:
	@echo "make run    build, reconcile the sample account in $(SAMPLE), print where the reports are"
	@echo "make test   lint, build and run every test"

toolchain:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
	  echo "make: the Swift toolchain (swift 6) is not on PATH. Install it (https://www.swift.org/install/linux/) and try again." >&2; \
	  exit 69; }

deps: toolchain
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "make: run as root to install:$$missing" >&2; exit 77; fi; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build --product stocktake

run: build
	@rm -rf $(OUT)/vt-nis
	$(STOCKTAKE) reconcile --account vt-nis \
	  --central $(SAMPLE)/central.csv --sighting $(SAMPLE)/sightings --register $(SAMPLE)/registers \
	  --buildings $(SAMPLE)/buildings.csv $(if $(AS_OF),--as-of $(AS_OF)) --out $(OUT)/vt-nis
	@echo
	@echo "Reports for vt-nis are in $(OUT)/vt-nis/: open $(OUT)/vt-nis/report.html, or read $(OUT)/vt-nis/summary.txt"

lint: toolchain
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

test: deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf $(BUILD_DIR) $(OUT)
