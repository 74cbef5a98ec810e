import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon
@testable import HealthSpoolWeb
import Testing

/// The Undo offers: once each, for their session only, for ten minutes (time is passed in).
@Suite struct UndoLogTests {
    let undo = JournalUndo.removeDose(7)

    @Test func anOfferIsTakenOnceAndLandsWhereTheChangeLanded() throws {
        let log = UndoLog()
        let token = log.offer(undo, session: "a", back: "/meds", now: 1_000)
        #expect(UndoLog.isToken(token))
        let offer = try #require(log.take(token, session: "a", now: 2_000))
        #expect(offer.back == "/meds")
        guard case .removeDose(let id) = offer.undo else { Issue.record("another undo: \(offer.undo)"); return }
        #expect(id == 7)
        #expect(log.take(token, session: "a", now: 2_000) == nil)
    }

    @Test func anOfferBelongsToItsSession() {
        let log = UndoLog()
        let token = log.offer(undo, session: "a", back: "/", now: 0)
        #expect(log.take(token, session: "b", now: 0) == nil)
        #expect(log.take(token, session: "a", now: 0) != nil)
    }

    @Test func anOfferLastsTenMinutesWellOverTheTenSecondsAPersonNeeds() {
        let log = UndoLog()
        let early = log.offer(undo, session: "a", back: "/", now: 0)
        #expect(log.take(early, session: "a", now: 10_000) != nil)
        let late = log.offer(undo, session: "a", back: "/", now: 0)
        #expect(log.take(late, session: "a", now: UndoLog.lifetimeMillis) == nil)
    }

    @Test func theOldestOffersAreForgottenSoMemoryIsBounded() {
        let log = UndoLog(perSession: 3, sessions: 2)
        let tokens = (0..<5).map { _ in log.offer(undo, session: "a", back: "/", now: 0) }
        #expect(log.take(tokens[0], session: "a", now: 0) == nil && log.take(tokens[1], session: "a", now: 0) == nil)
        #expect(log.take(tokens[4], session: "a", now: 0) != nil)
        #expect(log.count == 2)
        // More sessions than kept: the one whose last offer is oldest goes first ("a", then "b").
        let b = log.offer(undo, session: "b", back: "/", now: 0)
        for s in ["c", "d"] { _ = log.offer(undo, session: s, back: "/", now: 0) }
        #expect(log.count == 2)
        #expect(log.take(tokens[3], session: "a", now: 0) == nil && log.take(b, session: "b", now: 0) == nil)
    }

    @Test func onlyATokenItMakesIsPutInAForm() {
        #expect(!UndoLog.isToken("\"><script>"))
        #expect(!UndoLog.isToken("abc"))
        #expect(UndoLog.isToken(String(repeating: "a", count: 32)))
    }
}
