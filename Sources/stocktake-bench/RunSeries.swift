/// The wall times of the runs of one benchmark (`--runs N`), in the order they ran, and which run is reported.
///
/// One run of a small account moves by a tenth from run to run on a shared machine (page cache evictions, other
/// guests); the run of median wall time, beside the fastest and the slowest, is a figure that can be reproduced.
struct RunSeries: Sendable, Equatable {
    /// Seconds of each run, in run order.
    var walls: [Double]

    /// The index of the run of median wall time; of an even number of runs, the faster of the two middle ones.
    var medianIndex: Int {
        let order = walls.indices.sorted { walls[$0] < walls[$1] || (walls[$0] == walls[$1] && $0 < $1) }
        return order[(order.count - 1) / 2]
    }

    /// The run to report: the first whose findings differ from the injected ones (`differs`, by run), so that a
    /// wrong run is never hidden behind a median, else the run of median wall time.
    func reportedIndex(differs: [Bool]) -> Int {
        differs.firstIndex(of: true) ?? medianIndex
    }

    /// The fastest and the slowest run's seconds.
    var range: ClosedRange<Double> { walls.min()!...walls.max()! }
}
