import Testing

@testable import stocktake_bench

@Suite("RunSeries: which of several runs is reported")
struct RunSeriesTests {
    @Test func theMedianOfAnOddNumberOfRunsIsTheMiddleOne() {
        let series = RunSeries(walls: [0.09, 0.07, 0.08, 0.30, 0.075])
        #expect(series.medianIndex == 2)
        #expect(series.range == 0.07...0.30)
    }

    @Test func ofAnEvenNumberTheFasterOfTheTwoMiddleOnes() {
        #expect(RunSeries(walls: [0.4, 0.1, 0.3, 0.2]).medianIndex == 3)
        #expect(RunSeries(walls: [5, 6]).medianIndex == 0)
    }

    @Test func ofEqualTimesTheEarlierRunAndOfOneRunThatRun() {
        #expect(RunSeries(walls: [1, 1, 1]).medianIndex == 1)
        #expect(RunSeries(walls: [2, 1, 1, 2]).medianIndex == 2)
        #expect(RunSeries(walls: [3]).medianIndex == 0)
        #expect(RunSeries(walls: [3]).range == 3...3)
    }

    /// A run whose findings differ is reported, the first of them, wherever its time lies; with none, the median.
    @Test func aRunWithWrongFindingsIsReportedInsteadOfTheMedian() {
        let series = RunSeries(walls: [0.09, 0.07, 0.08, 0.30, 0.075])
        #expect(series.reportedIndex(differs: [false, false, false, false, false]) == 2)
        #expect(series.reportedIndex(differs: [false, false, false, true, false]) == 3)
        #expect(series.reportedIndex(differs: [false, true, false, true, false]) == 1)
    }
}
