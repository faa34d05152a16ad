# stocktake: `make run` reconciles the bundled sample account, `make test` runs every check.
# Both install what is missing first (run as root on Debian), so they work from a fresh clone.

SWIFT      ?= swift
BUILD_DIR  ?= .build
OUT        ?= out
STATE      ?= state
AS_OF      ?=
STOCKTAKE  := $(BUILD_DIR)/debug/stocktake
BENCH      := $(BUILD_DIR)/release/stocktake-bench
# Generated benchmark data, one folder per parameter set, reused while its parameters match.
BENCH_DATA ?= $(BUILD_DIR)/bench-data
# DuckDB (PyPI duckdb) for `make bench-duckdb`, installed only there.
BENCH_VENV := $(BUILD_DIR)/bench-venv
# An older stocktake to compare outputs with: make bench REFERENCE=/path/to/old/stocktake
REFERENCE  ?=
# Release builds (the benchmarks, `make install`) link the Swift runtime and Foundation into the program: each
# account's process of `stocktake run` then starts without dynamically linking Foundation and ICU (7 ms less CPU
# per account), and the program needs no Swift toolchain where it is installed, only libcurl. It is about 78 MB.
# Debug builds (`make run`, `make test`) stay dynamic: they link faster. A release build with other flags (plain
# `swift build -c release`) recompiles every module, and so does the next `make release`.
RELEASE_FLAGS ?= -c release --static-swift-stdlib
# Where `make install` puts stocktake and the nightly wrapper: $(PREFIX)/bin, which cron/crontab's PATH holds.
PREFIX     ?= /usr/local

# Debian packages the build needs (libcurl is the only HTTP stack), and those only the tests need: Apache httpd
# with mod_dav serves sheets over TLS with a CA made by openssl, python3 runs the Google API emulator, cron
# (`crontab -n`) checks cron/crontab, LibreOffice saves a central sheet the way a clerk's spreadsheet does, and
# headless Chromium renders report.html to PNG and PDF (poppler-utils' pdftotext reads the PDF's pages back).
APT_PACKAGES      := libcurl4-openssl-dev zlib1g-dev pkg-config
APT_TEST_PACKAGES := apache2 openssl python3 cron libreoffice-calc-nogui python3-openpyxl python3-xlsxwriter \
                     chromium poppler-utils

.PHONY: all build release install run test lint deps test-deps install-missing toolchain clean help \
	bench bench-accounts bench-linear bench-duckdb bench-smoke bench-workbook bench-report bench-deps report-png kill-matrix \
	fuzz

all: build

help:
	@echo "make run    build, run the nightly job over Jobs/ (the sample accounts), print where the reports are"
	@echo "make test   lint, build and run every test"
	@echo "make install  release build, then stocktake and cron/stocktake-nightly into $(PREFIX)/bin"
	@echo "make bench  release build, 1,000,000 assets in one account (REFERENCE=old/stocktake compares outputs)"
	@echo "make bench-accounts  1,000 accounts of 3,000 assets in one 'stocktake run' (median of 3 runs)"
	@echo "make bench-linear    10,000, 100,000 and 1,000,000 assets (medians of 5, 5, 3 runs), the time per asset"
	@echo "make bench-duckdb    1,000,000 assets, and the same reconciliation (approximately) in DuckDB"
	@echo "make bench-smoke     100,000 assets: fails on wrong findings only (CI runs it)"
	@echo "make bench-workbook  a 200,000-row .xlsx sheet (XlsxWriter) read, against the same sheet as CSV"
	@echo "make bench-report    report.html with 50,000 findings: its size and headless Chromium's time to render it"
	@echo "make report-png      samples/vt-nis/report.png: a screenshot of the sample account's report.html"
	@echo "make kill-matrix     SIGKILL at every kill point of a pushing run of 200,000 assets (README Reliability)"
	@echo "make fuzz           libFuzzer on the CSV and .xlsx readers, account.json, HTTP responses and the normalizers"

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
# The tests' temporary folders go into a folder of this run's own, removed afterwards: several fixtures leave theirs,
# and a few hundred folders a run filled /tmp on a machine that tests often. Apache's workers (www-data) serve the
# WebDAV tests' files from it, so it is world-readable like /tmp, not mktemp's 0700.
test: test-deps lint
	$(SWIFT) build --build-tests
	@tmp=$$(mktemp -d /tmp/stocktake-tests.XXXXXX) && chmod 755 "$$tmp" && \
	  echo "TMPDIR=$$tmp $(SWIFT) test --skip-build" && \
	  STOCKTAKE_REQUIRE_SERVERS=1 TMPDIR=$$tmp $(SWIFT) test --skip-build; status=$$?; rm -rf "$$tmp"; exit $$status

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product stocktake
	$(SWIFT) build $(RELEASE_FLAGS) --product stocktake-bench

install: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product stocktake
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BUILD_DIR)/release/stocktake cron/stocktake-nightly $(DESTDIR)$(PREFIX)/bin/

# The benchmarks keep their generated data in $(BENCH_DATA); each fails on wrong findings, never on time.
bench: release
	$(BENCH) run --assets 1000000 --data $(BENCH_DATA) $(if $(REFERENCE),--check-against $(REFERENCE))

bench-accounts: release
	$(BENCH) run --assets 3000 --accounts 1000 --runs 3 --data $(BENCH_DATA)

# The median of five runs (three of the largest): one run of a small account moves by a tenth on a shared machine.
bench-linear: release
	@for n in 10000 100000 1000000; do \
	  runs=5; [ $$n = 1000000 ] && runs=3; \
	  $(BENCH) run --assets $$n --runs $$runs --data $(BENCH_DATA) > $(BUILD_DIR)/bench-linear-$$n.txt; status=$$?; \
	  cat $(BUILD_DIR)/bench-linear-$$n.txt; echo; [ $$status = 0 ] || exit $$status; done
	@echo "Time per asset (and over the program's start, the start floor):"
	@for n in 10000 100000 1000000; do f=$(BUILD_DIR)/bench-linear-$$n.txt; \
	  printf '  %9s assets: %s µs (%s µs over the start)\n' $$n "$$(sed -n 's/^ *µs\/asset  *\([0-9.]*\)$$/\1/p' $$f)" \
	    "$$(sed -n 's/^ *µs\/asset over start  *//p' $$f)"; done

bench-duckdb: release bench-deps
	$(BENCH) run --assets 1000000 --data $(BENCH_DATA) --compare-duckdb $(if $(REFERENCE),--check-against $(REFERENCE))

bench-smoke: release
	$(BENCH) run --assets 100000 --data $(BENCH_DATA)

bench-workbook: release
	@$(MAKE) --no-print-directory install-missing PACKAGES="python3 python3-xlsxwriter"
	$(BENCH) workbook --rows 200000 --data $(BENCH_DATA)

bench-report: release
	@$(MAKE) --no-print-directory install-missing PACKAGES="chromium"
	$(BENCH) report --findings 50000 --data $(BENCH_DATA)

# The sample account's report as a browser shows it (1280×900, the top of the page), for the README: reconciled
# as Jobs/vt-nis/account.json describes it, on a fixed date, then screenshot by the rendering tests' driver.
REPORT_PNG_OUT := $(BUILD_DIR)/report-png
report-png: build
	@$(MAKE) --no-print-directory install-missing PACKAGES="python3 chromium"
	rm -rf $(REPORT_PNG_OUT)
	$(STOCKTAKE) reconcile --central samples/vt-nis/central.csv --sighting samples/vt-nis/sightings \
	  --register samples/vt-nis/registers --buildings samples/vt-nis/buildings.csv --tag-digits 6 --cns-digits 6 \
	  --stale-after-days 365 --as-of 2026-11-20 --account vt-nis --name "Virginia Tech NI&S" \
	  --time-zone America/New_York --quiet --out $(REPORT_PNG_OUT)
	python3 Tests/StocktakeCLITests/Chromium/render_page.py --chromium "$$(command -v chromium)" \
	  --url "file://$(CURDIR)/$(REPORT_PNG_OUT)/report.html" --png samples/vt-nis/report.png --width 1280 --height 900 \
	  > $(REPORT_PNG_OUT)/rendering.json
	@echo "Wrote samples/vt-nis/report.png"

# The kill matrix of `make test` (KillMatrixTests, 1,000 assets) at 200,000 assets, against the release build:
# one row per kill point, written to $(BUILD_DIR)/kill-matrix.txt and printed with the points that failed, if any.
KILL_MATRIX_ASSETS ?= 200000
kill-matrix: release
	$(SWIFT) build --build-tests
	@rm -f $(BUILD_DIR)/kill-matrix.txt
	@STOCKTAKE_KILL_MATRIX_ASSETS=$(KILL_MATRIX_ASSETS) STOCKTAKE_KILL_MATRIX_BIN=$(abspath $(BUILD_DIR))/release \
	  STOCKTAKE_KILL_MATRIX_TABLE=$(abspath $(BUILD_DIR))/kill-matrix.txt \
	  $(SWIFT) test --skip-build --filter 'KillMatrixTests/aRunKilledAtThisPoint' > $(BUILD_DIR)/kill-matrix.log 2>&1; \
	status=$$?; echo "Kill matrix at $(KILL_MATRIX_ASSETS) assets (log: $(BUILD_DIR)/kill-matrix.log):"; \
	echo "| kill point | seconds (3 nights) |"; echo "|---|---|"; cat $(BUILD_DIR)/kill-matrix.txt 2>/dev/null; \
	failed=$$(grep '✘' $(BUILD_DIR)/kill-matrix.log | grep -o 'point → \.[A-Za-z]*' | sort -u | sed 's/point → \.//'); \
	if [ $$status = 0 ]; then echo "every point held"; else echo "FAILED:" $$failed; fi; exit $$status

bench-deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="python3 python3-venv"
	@$(BENCH_VENV)/bin/python3 -c 'import duckdb' 2>/dev/null || { \
	  python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install --quiet duckdb; }

clean:
	rm -rf $(BUILD_DIR) $(OUT) $(STATE)

# libFuzzer (swiftc -sanitize=fuzzer,address): each target of Tests/Fuzz runs FUZZ_SECONDS (10 minutes by default),
# FUZZ_TARGETS picks some ("csv workbook config http normalizers"). Inputs that crash, hang or run out of memory are
# kept in .build/fuzz/artifacts/<target>/; `Tests/Fuzz/fuzz.sh replay TARGET FILE` runs one again.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= csv workbook config http normalizers
fuzz: test-deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Tests/Fuzz/fuzz.sh run "$(FUZZ_TARGETS)"
