#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of Tests/Fuzz (`make fuzz`): the libraries are compiled with
# -sanitize=fuzzer,address into $FUZZ_DIR, then each target runs for $FUZZ_SECONDS from a seed corpus made of the
# samples, ../shared/testdata when present, and the seeds below. Crashes, hangs and out-of-memory inputs are kept in
# $FUZZ_DIR/artifacts/<target>/; each run's last lines (executions, coverage) go to $FUZZ_DIR/<target>.log.
#
#   Tests/Fuzz/fuzz.sh build            build every target
#   Tests/Fuzz/fuzz.sh run TARGET...    build, then fuzz the named targets (csv workbook config http normalizers)
#   Tests/Fuzz/fuzz.sh replay TARGET FILE...   run a target once on each file (a reproducer)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
FUZZ_DIR=${FUZZ_DIR:-$root/.build/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-600}
FUZZ_JOBS=${FUZZ_JOBS:-1}
TESTDATA=${TESTDATA:-$root/../shared/testdata}
export LSAN_OPTIONS="suppressions=$root/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
mkdir -p "$FUZZ_DIR"
flags=(-O -enable-testing -sanitize=fuzzer,address -parse-as-library -I "$FUZZ_DIR" -I Sources/CZlib -I Sources/CCurl)

# A library is rebuilt when one of its sources is newer than its archive.
library() {
    local name=$1
    local archive="$FUZZ_DIR/lib$name.a"
    local sources
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    if [[ -f $archive ]] && [[ -z $(find "Sources/$name" -name '*.swift' -newer "$archive" -print -quit) ]]; then
        return
    fi
    echo "fuzz: compiling $name (${#sources[@]} files)"
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$FUZZ_DIR/$name.swiftmodule" \
        -emit-library -static -o "$archive" "${sources[@]}" 2>"$FUZZ_DIR/$name.build.log" || {
        cat "$FUZZ_DIR/$name.build.log" >&2
        exit 1
    }
}

# target NAME LIBRARIES... -- SOURCES...
target() {
    local name=$1
    shift
    local libraries=() sources=()
    while [[ $1 != -- ]]; do libraries+=("-l$1"); shift; done
    shift
    sources=("$@")
    local binary="$FUZZ_DIR/fuzz-$name" newer
    newer=$(find "${sources[@]}" "$FUZZ_DIR"/lib*.a -newer "$binary" -print -quit 2>/dev/null || echo missing)
    [[ -f $binary && -z $newer ]] && return
    echo "fuzz: linking fuzz-$name"
    # ld.gold warns once per sanitizer symbol it cannot export; the log keeps them, shown only on a failure.
    swiftc "${flags[@]}" -L "$FUZZ_DIR" "${sources[@]}" "${libraries[@]}" -lz -lcurl -o "$FUZZ_DIR/fuzz-$name" \
        2>"$FUZZ_DIR/fuzz-$name.build.log" || {
        grep -v 'Cannot export local symbol' "$FUZZ_DIR/fuzz-$name.build.log" >&2
        exit 1
    }
}

build() {
    library StocktakeCore
    library StocktakeSync
    library StocktakeJob
    target csv StocktakeCore -- Tests/Fuzz/CSVReaderFuzz.swift Tests/Fuzz/FuzzCheck.swift
    target workbook StocktakeCore -- Tests/Fuzz/WorkbookFuzz.swift Tests/Fuzz/FuzzCheck.swift
    target normalizers StocktakeCore -- Tests/Fuzz/NormalizerFuzz.swift
    target config StocktakeJob StocktakeSync StocktakeCore -- Tests/Fuzz/AccountConfigFuzz.swift
    target http StocktakeSync StocktakeCore -- Tests/Fuzz/HTTPResponseFuzz.swift
}

# The seed corpus of a target, rebuilt on every run (libFuzzer adds what it finds to $FUZZ_DIR/corpus/<target>).
seeds() {
    local name=$1 folder="$FUZZ_DIR/seeds/$1"
    rm -rf "$folder"
    mkdir -p "$folder"
    case $name in
    csv)
        find samples Tests -name '*.csv' -size -256k -exec cp --backup=numbered -t "$folder" {} +
        printf 'VT Tag,MAC\n"000072","00:1a:2b:3c:4d:5e"\n"unterminated\n' >"$folder/quote.csv"
        printf '\xef\xbb\xbfTag\tRoom\r\n000072\t101\r\n' >"$folder/bom.tsv"
        printf '\xff\xfeT\x00a\x00g\x00\n\x001\x00\n\x00' >"$folder/utf16.csv"
        ;;
    workbook)
        if [[ -d $TESTDATA/xlsx-calamine ]]; then
            find "$TESTDATA/xlsx-calamine" -name '*.xlsx' -size -256k -exec cp -t "$folder" {} +
        fi
        find samples state -name '*.xlsx' -size -256k -exec cp --backup=numbered -t "$folder" {} + 2>/dev/null || true
        python3 Tests/Fuzz/seed-workbook.py "$folder/made.xlsx"
        ;;
    config)
        find Jobs samples -name account.json -exec cp --backup=numbered -t "$folder" {} +
        printf '{"name": "Acme", "central": "central.csv", "rules": {"tagDigits": 6}}' >"$folder/minimal.json"
        ;;
    http)
        printf 'HTTP/1.1 200 OK\r\nContent-Length: 12\r\nETag: "abc"\r\n\r\nVT Tag\n00001' >"$folder/ok"
        printf 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nVT Ta\r\n2\r\ng\n\r\n0\r\n\r\n' >"$folder/chunked"
        printf 'HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n\r\n{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}}' >"$folder/google-401"
        printf 'HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2\r\nContent-Length: 0\r\n\r\n' >"$folder/429"
        printf 'HTTP/1.1 503 Service Unavailable\r\nRetry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\n\r\n' >"$folder/503"
        printf 'HTTP/1.1 301 Moved\r\nLocation: /elsewhere.csv\r\n\r\n' >"$folder/301"
        printf 'HTTP/1.1 403 Forbidden\r\nContent-Type: text/html\r\n\r\n<html><title>Sign in</title></html>' >"$folder/html"
        ;;
    normalizers)
        local index=0
        for cell in 000072 72 VT-0072 C0001234 c1234 00:1a:2b:3c:4d:5e 001A.2B3C.4D5E 7.72E+04 '37.2296, -80.4139' \
            -80.4139 2026-11-20 11/20/2026 45000 'torg ' '  Room  101 ' N/A SN-ABC-123 '=cmd()' '$1,234.50' .99; do
            printf '%s' "$cell" >"$folder/$index"
            index=$((index + 1))
        done
        ;;
    esac
}

run() {
    local name=$1 max_len
    case $name in
    workbook) max_len=1048576 ;;
    http) max_len=65536 ;;
    csv) max_len=16384 ;;
    *) max_len=4096 ;;
    esac
    seeds "$name"
    mkdir -p "$FUZZ_DIR/corpus/$name" "$FUZZ_DIR/artifacts/$name"
    echo "fuzz: $name for $FUZZ_SECONDS s"
    set +e
    # With more than one job, libFuzzer writes each job's log as fuzz-N.log in the current folder: run it in its own.
    local parallel=()
    ((FUZZ_JOBS > 1)) && parallel=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
    mkdir -p "$FUZZ_DIR/logs/$name"
    (cd "$FUZZ_DIR/logs/$name" && "$FUZZ_DIR/fuzz-$name" "$FUZZ_DIR/corpus/$name" "$FUZZ_DIR/seeds/$name" \
        -max_total_time="$FUZZ_SECONDS" -max_len="$max_len" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        "${parallel[@]}" -artifact_prefix="$FUZZ_DIR/artifacts/$name/") >"$FUZZ_DIR/$name.log" 2>&1
    local status=$?
    set -e
    grep -E '^(#[0-9]+ +DONE|stat::|Done [0-9]+ runs)' "$FUZZ_DIR/$name.log" | tail -8 || true
    local found
    found=$(find "$FUZZ_DIR/artifacts/$name" -type f | wc -l)
    echo "fuzz: $name exited $status; $found input(s) in $FUZZ_DIR/artifacts/$name"
    return "$status"
}

case ${1:-} in
build) build ;;
run)
    shift
    build
    failed=0
    for name in "${@:-csv workbook config http normalizers}"; do
        for each in $name; do run "$each" || failed=1; done
    done
    exit $failed
    ;;
replay)
    name=$2
    shift 2
    build
    "$FUZZ_DIR/fuzz-$name" -runs=1 "$@"
    ;;
*)
    sed -n '2,10p' "$0" >&2
    exit 64
    ;;
esac
