// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "stocktake",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "stocktake", targets: ["stocktake"]),
        .executable(name: "stocktake-bench", targets: ["stocktake-bench"]),
        .library(name: "StocktakeCore", targets: ["StocktakeCore"]),
    ],
    targets: [
        // All reconciliation logic: reading (CSV and .xlsx), normalization, merge, discrepancies, reports. No network.
        .target(name: "StocktakeCore", dependencies: ["CZlib", "CMemory", "CFile"]),
        // zlib, for the deflated parts of .xlsx workbooks (ZIP files): Debian's zlib1g-dev, found with pkg-config. It
        // is on every Debian system already (libcurl links it), so it adds no package to run stocktake.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Prefetching, which Swift cannot ask for, as inline C in a header: nothing linked. Lookups in tables of
        // millions of entries (identification, merging) fetch their memory a few rows ahead.
        .systemLibrary(name: "CMemory"),
        // Starting a large output's writeback early (sync_file_range, declared by the C library only for
        // _GNU_SOURCE), as inline C in a header: the C library only, nothing linked.
        .systemLibrary(name: "CFile"),
        // libcurl, the only HTTP stack: Debian's libcurl4-openssl-dev, found with pkg-config.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Pulling and pushing sheets: the libcurl client, providers, credentials.
        .target(name: "StocktakeSync", dependencies: ["CCurl", "StocktakeCore"]),
        // Process calls Swift cannot make (prctl, descriptors passed over a Unix socket), as inline C in a header:
        // the C library only, nothing linked. The account launcher of `stocktake run` uses them.
        .systemLibrary(name: "CProcess"),
        // Company accounts and nightly runs: configuration, state folders, locking.
        .target(name: "StocktakeJob", dependencies: ["CProcess", "StocktakeCore", "StocktakeSync"]),
        // Thin command-line front end: parses arguments and calls StocktakeCore.
        .executableTarget(name: "stocktake", dependencies: ["StocktakeCore", "StocktakeSync", "StocktakeJob"]),
        // Deterministic generator of realistic accounts with known, injected discrepancies.
        .target(name: "StocktakeGenerator"),
        .executableTarget(name: "stocktake-bench", dependencies: ["StocktakeGenerator", "StocktakeCore"]),
        // Starts the Python test servers of the test targets on 127.0.0.1, one helper for all of them.
        .target(name: "StocktakeTestServers", path: "Tests/StocktakeTestServers"),
        .testTarget(
            name: "StocktakeCoreTests", dependencies: ["StocktakeCore", "StocktakeGenerator"],
            // Small hostile files the tests read from disk (and fuzzing seeds from), not compiled sources.
            exclude: ["HostileInputs"]),
        .testTarget(name: "StocktakeGeneratorTests", dependencies: ["StocktakeGenerator"]),
        .testTarget(
            name: "StocktakeSyncTests", dependencies: ["StocktakeSync", "StocktakeCore", "StocktakeTestServers"],
            // Test servers (Apache configuration, the Google API emulator) run as programs, not compiled sources.
            exclude: ["Servers"]),
        .testTarget(
            name: "StocktakeJobTests",
            dependencies: [
                "StocktakeJob", "StocktakeCore", "StocktakeSync", "StocktakeTestServers", "StocktakeGenerator",
            ],
            exclude: ["Servers"]),
        // Runs the built `stocktake` executable as a user would (arguments, exit statuses, messages), and its
        // option parsing and commands in-process (`@testable import stocktake`).
        .testTarget(
            name: "StocktakeCLITests",
            dependencies: ["stocktake", "StocktakeCore", "StocktakeJob", "StocktakeTestServers"],
            // The headless Chromium driver (render_page.py) runs as a program, not a compiled source.
            exclude: ["Chromium"]),
        // Runs the built `stocktake-bench` (and the `stocktake` beside it) end to end, and tests its parts.
        .testTarget(
            name: "StocktakeBenchTests",
            dependencies: ["stocktake-bench", "stocktake", "StocktakeCore", "StocktakeGenerator", "StocktakeJob"]),
    ]
)
