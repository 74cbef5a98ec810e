import HealthSpoolCore
import Testing

@Suite struct DaemonStateMachineTests {
    @Test func startingUnlockedReadsTheSpoolAndWatches() {
        var m = DaemonStateMachine()
        #expect(m.state == .starting)
        #expect(m.started(locked: false) == [.readSpool])
        #expect(m.state == .watching)
    }

    @Test func startingLockedReadsNothingUntilUnlock() {
        var m = DaemonStateMachine()
        #expect(m.started(locked: true) == [])
        #expect(m.state == .locked)
        m.syncJobsChanged(pending: 2)
        #expect(m.state == .locked, "jobs do not unlock")
        #expect(m.lockChanged(false) == [.readSpool])
        #expect(m.state == .syncing)
    }

    @Test func syncJobsMoveBetweenWatchingAndSyncing() {
        var m = DaemonStateMachine()
        _ = m.started(locked: false)
        m.syncJobsChanged(pending: 1)
        #expect(m.state == .syncing)
        #expect(m.lockChanged(true) == [] && m.state == .locked)
        #expect(m.lockChanged(true) == [], "a second lock event changes nothing")
        _ = m.lockChanged(false)
        m.syncJobsChanged(pending: 0)
        #expect(m.state == .watching)
    }

    @Test func theFirstStopStopsAndLaterOnesAreIgnored() {
        var m = DaemonStateMachine()
        _ = m.started(locked: false)
        #expect(m.stopRequested() == [.stopIntake, .interruptImport, .finishBatchInFlight])
        #expect(m.state == .stopping)
        #expect(m.stopRequested() == [])
        #expect(m.lockChanged(true) == [] && m.state == .stopping)
        m.syncJobsChanged(pending: 3)
        #expect(m.state == .stopping)
    }

    @Test func aStopDuringStartUpStillStops() {
        var m = DaemonStateMachine()
        #expect(m.stopRequested().contains(.interruptImport))
        #expect(m.started(locked: false) == [])
        #expect(m.state == .stopping)
    }
}
