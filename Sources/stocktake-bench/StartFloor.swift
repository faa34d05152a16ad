/// The start floor: how long the measured program takes when it does nothing (`stocktake --version`): loading it
/// and the libraries it is linked with, and exiting. Every run of `stocktake` pays it once, however small its
/// account, so a small account's time per asset over this floor shows what its own work costs (at 10,000 assets
/// the start is about a seventh of the run).
struct StartFloor: Sendable, Equatable {
    /// The median wall seconds of the timed starts.
    var seconds: Double
    /// How many starts were timed.
    var runs: Int

    /// Starts `program --version` once so that it is in the page cache, then `runs` times, with `environment` as the
    /// measured runs have it; the logs of the last start are in `logs`. Throws when the program does not start or
    /// fails.
    static func measure(
        _ program: String, runs: Int = 9, environment: [String: String], logs: String
    ) throws(BenchError) -> StartFloor {
        precondition(runs > 0, "the start floor needs at least one timed start")
        _ = try SingleAccountBenchmark.measure(program, ["--version"], environment: environment, logs: logs)
        var walls: [Double] = []
        for _ in 0..<runs {
            let measurement = try SingleAccountBenchmark.measure(
                program, ["--version"], environment: environment, logs: logs)
            walls.append(measurement.wallSeconds)
        }
        return StartFloor(seconds: walls[RunSeries(walls: walls).medianIndex], runs: runs)
    }
}
