import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon
@testable import HealthSpoolWeb
import Testing

/// One-time form tokens: a double tap never makes two entries.
@Suite struct FormTokenTests {
    let redirect = SessionMemory.Answer(status: 303, location: "/meds?ok=Logged")

    @Test func aTokenIsCarriedOutOnceAndARepeatGetsTheFirstAnswer() {
        let tokens = SessionMemory()
        let t = tokens.issue(session: "a")
        #expect(tokens.claim(t, session: "a") == .fresh)
        #expect(tokens.claim(t, session: "a") == .inProgress)
        tokens.finish(t, session: "a", answer: redirect)
        #expect(tokens.claim(t, session: "a") == .repeated(redirect))
        #expect(tokens.claim(t, session: "a") == .repeated(redirect))
    }

    @Test func aTokenBelongsToItsSessionAndAnUnissuedOneIsUnknown() {
        let tokens = SessionMemory()
        let t = tokens.issue(session: "a")
        #expect(tokens.claim(t, session: "b") == .unknown)
        #expect(tokens.claim("0123", session: "a") == .unknown)
        #expect(tokens.claim(t, session: "a") == .fresh)
    }

    @Test func aReleasedTokenMayBeSentAgain() {
        let tokens = SessionMemory()
        let t = tokens.issue(session: "a")
        #expect(tokens.claim(t, session: "a") == .fresh)
        tokens.release(t, session: "a")
        #expect(tokens.claim(t, session: "a") == .fresh)
    }

    @Test func tokensAreRandomAndLongEnoughNotToBeGuessed() {
        let tokens = SessionMemory()
        let issued = (0..<100).map { _ in tokens.issue(session: "a") }
        #expect(Set(issued).count == 100)
        #expect(issued.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func theOldestTokensAndSessionsAreForgottenSoMemoryIsBounded() {
        let tokens = SessionMemory(.init(tokens: 4, sessions: 2))
        let first = tokens.issue(session: "a")
        let kept = (0..<4).map { _ in tokens.issue(session: "a") }
        #expect(tokens.claim(first, session: "a") == .unknown)
        #expect(tokens.claim(kept[0], session: "a") == .fresh)
        for _ in 0..<1000 { _ = tokens.issue(session: "b") }
        let c = tokens.issue(session: "c")  // a third session: "a", used longest ago, goes
        #expect(tokens.claim(kept[1], session: "a") == .unknown)
        #expect(tokens.claim(c, session: "c") == .fresh)
        #expect(tokens.count.tokens <= 8)
    }

    @Test func loggingOutForgetsAllTheSessionKept() {
        let memory = SessionMemory()
        let t = memory.issue(session: "a")
        let undo = memory.offer(.removeDose(7), session: "a", back: "/meds", now: 0)
        let notice = memory.hold(.init(ok: "Logged."), session: "a", now: 0)
        memory.end(session: "a")
        #expect(memory.claim(t, session: "a") == .unknown)
        #expect(memory.take(undo, session: "a", now: 0) == nil)
        #expect(memory.held(notice, session: "a", now: 0) == nil)
        #expect(memory.count.tokens == 0 && memory.count.offers == 0 && memory.count.notices == 0)
    }
}

/// The Undo offers: once each, for their session only, for ten minutes (time is passed in).
@Suite struct UndoOfferTests {
    let undo = JournalUndo.removeDose(7)

    @Test func anOfferIsTakenOnceAndLandsWhereTheChangeLanded() throws {
        let log = SessionMemory()
        let token = log.offer(undo, session: "a", back: "/meds", now: 1_000)
        #expect(SessionMemory.isToken(token))
        let offer = try #require(log.take(token, session: "a", now: 2_000))
        #expect(offer.back == "/meds")
        guard case .removeDose(let id) = offer.undo else { Issue.record("another undo: \(offer.undo)"); return }
        #expect(id == 7)
        #expect(log.take(token, session: "a", now: 2_000) == nil)
    }

    @Test func anOfferBelongsToItsSession() {
        let log = SessionMemory()
        let token = log.offer(undo, session: "a", back: "/", now: 0)
        #expect(log.take(token, session: "b", now: 0) == nil)
        #expect(log.take(token, session: "a", now: 0) != nil)
    }

    @Test func anOfferLastsTenMinutesWellOverTheTenSecondsAPersonNeeds() {
        let log = SessionMemory()
        let early = log.offer(undo, session: "a", back: "/", now: 0)
        #expect(log.take(early, session: "a", now: 10_000) != nil)
        let late = log.offer(undo, session: "a", back: "/", now: 0)
        #expect(log.take(late, session: "a", now: SessionMemory.lifetimeMillis) == nil)
    }

    @Test func theOldestOffersAreForgottenSoMemoryIsBounded() {
        let log = SessionMemory(.init(offers: 3, sessions: 2))
        let tokens = (0..<5).map { _ in log.offer(undo, session: "a", back: "/", now: 0) }
        #expect(log.take(tokens[0], session: "a", now: 0) == nil && log.take(tokens[1], session: "a", now: 0) == nil)
        #expect(log.take(tokens[4], session: "a", now: 0) != nil)
        #expect(log.count.offers == 2)
        // More sessions than kept: the one used longest ago goes first ("a", then "b").
        let b = log.offer(undo, session: "b", back: "/", now: 0)
        for s in ["c", "d"] { _ = log.offer(undo, session: s, back: "/", now: 0) }
        #expect(log.count.offers == 2)
        #expect(log.take(tokens[3], session: "a", now: 0) == nil && log.take(b, session: "b", now: 0) == nil)
    }

    @Test func onlyATokenItMakesIsPutInAForm() {
        #expect(!SessionMemory.isToken("\"><script>"))
        #expect(!SessionMemory.isToken("abc"))
        #expect(SessionMemory.isToken(String(repeating: "a", count: 32)))
    }
}

/// The messages pages show after an action (issue 39).
@Suite struct HeldNoticeTests {
    @Test func aNoticeIsShownOnlyToItsSessionUntilItExpires() {
        let memory = SessionMemory(.init(notices: 2, sessions: 2))
        let id = memory.hold(.init(ok: "Saved."), session: "s1", now: 0)
        #expect(memory.held(id, session: "s1", now: 1)?.ok == "Saved.")
        #expect(memory.held(id, session: "s2", now: 1) == nil)
        #expect(memory.held(id, session: "s1", now: SessionMemory.lifetimeMillis) == nil)
        // Another id (its first character changed; the ids are random hex, so "0" alone would be
        // the same id one time in sixteen): nothing.
        let other = (id.first == "0" ? "1" : "0") + id.dropFirst()
        #expect(memory.held(other, session: "s1", now: 1) == nil)
    }

    @Test func theMessageLeavesTheAddressAndIsHeldAndSoAreOnlyTheFieldsOfANotice() throws {
        let memory = SessionMemory()
        let undo = String(repeating: "ab", count: 16)
        let address = memory.address("/day/2026-11-26?x=1&ok=Saved%3A%20Headache&emergency=1&undo=\(undo)", session: "s", now: 0)
        #expect(!address.contains("Saved") && !address.contains("ok=") && !address.contains("undo="))
        #expect(address.hasPrefix("/day/2026-11-26?x=1&notice="))
        let id = try #require(Form(String(address.split(separator: "?")[1]))["notice"])
        #expect(memory.held(id, session: "s", now: 1) == .init(ok: "Saved: Headache", undo: undo, emergency: true))
        #expect(memory.address("/meds", session: "s", now: 0) == "/meds")
        #expect(memory.address("/?error=Nope", session: nil, now: 0) == "/")
    }

    @Test func atMostPerSessionNoticesAreKept() {
        let memory = SessionMemory(.init(notices: 2, sessions: 2))
        let first = memory.hold(.init(ok: "1"), session: "s", now: 0)
        _ = memory.hold(.init(ok: "2"), session: "s", now: 0)
        _ = memory.hold(.init(ok: "3"), session: "s", now: 0)
        #expect(memory.held(first, session: "s", now: 0) == nil)
        let other = memory.hold(.init(ok: "a"), session: "t", now: 0)
        _ = memory.hold(.init(ok: "b"), session: "u", now: 0)
        #expect(memory.held(other, session: "t", now: 0) != nil)   // s, the oldest, was forgotten
    }
}
