import Testing

@testable import StocktakeCore

@Suite struct FailureSimulationTests {
    @Test func eachLabelNamesWhereTheFailureWasAskedFor() {
        let simulation = FailureSimulation([.push], origin: .commandLine)
            .merging(FailureSimulation([.upload], origin: .account))
        #expect(simulation.label(.push) == "(simulated failure: --simulate-failure push)")
        #expect(simulation.label(.upload) == "(simulated failure: testFailureMode upload)")
        #expect(simulation.label(.pull) == nil)
        #expect(simulation.kinds == [.push, .upload])
    }

    @Test func theCommandLineLabelWinsWhenBothAskForAKind() {
        let commandLine = FailureSimulation([.diskFull], origin: .commandLine)
        let account = FailureSimulation([.diskFull, .lock], origin: .account)
        #expect(commandLine.merging(account).label(.diskFull) == "(simulated failure: --simulate-failure disk-full)")
        #expect(account.merging(commandLine).label(.diskFull) == "(simulated failure: --simulate-failure disk-full)")
        #expect(account.merging(commandLine).label(.lock) == "(simulated failure: testFailureMode lock)")
    }

    @Test func theKindsAreThoseAskedFor() {
        let simulation = FailureSimulation([.pull], origin: .commandLine)
        #expect(simulation.kinds == [.pull])
        #expect(FailureSimulation().isEmpty && !simulation.isEmpty)
    }

    @Test func aSimulatedErrorIsTheRealOneAfterItsLabel() {
        let real = StocktakeError.cannotWrite(path: "out/cleaned.csv", reason: "the disk is full")
        let simulated = StocktakeError.simulated(real, label: "(simulated failure: --simulate-failure disk-full)")
        #expect(simulated.description == "(simulated failure: --simulate-failure disk-full) \(real.description)")
        #expect(simulated.exitStatus == real.exitStatus)
    }
}
