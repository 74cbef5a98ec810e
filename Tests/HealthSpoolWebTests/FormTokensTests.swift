@testable import HealthSpoolWeb
import Testing

@Suite struct FormTokensTests {
    let redirect = FormTokens.Answer(status: 303, location: "/meds?ok=Logged")

    @Test func aTokenIsCarriedOutOnceAndARepeatGetsTheFirstAnswer() {
        let tokens = FormTokens()
        let t = tokens.issue(session: "a")
        #expect(tokens.claim(t, session: "a") == .fresh)
        #expect(tokens.claim(t, session: "a") == .inProgress)
        tokens.finish(t, session: "a", answer: redirect)
        #expect(tokens.claim(t, session: "a") == .repeated(redirect))
        #expect(tokens.claim(t, session: "a") == .repeated(redirect))
    }

    @Test func aTokenBelongsToItsSessionAndAnUnissuedOneIsUnknown() {
        let tokens = FormTokens()
        let t = tokens.issue(session: "a")
        #expect(tokens.claim(t, session: "b") == .unknown)
        #expect(tokens.claim("0123", session: "a") == .unknown)
        #expect(tokens.claim(t, session: "a") == .fresh)
    }

    @Test func aReleasedTokenMayBeSentAgain() {
        let tokens = FormTokens()
        let t = tokens.issue(session: "a")
        #expect(tokens.claim(t, session: "a") == .fresh)
        tokens.release(t, session: "a")
        #expect(tokens.claim(t, session: "a") == .fresh)
    }

    @Test func tokensAreRandomAndLongEnoughNotToBeGuessed() {
        let tokens = FormTokens()
        let issued = (0..<100).map { _ in tokens.issue(session: "a") }
        #expect(Set(issued).count == 100)
        #expect(issued.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func theOldestTokensAndSessionsAreForgottenSoMemoryIsBounded() {
        let tokens = FormTokens(perSession: 4, sessions: 2)
        let first = tokens.issue(session: "a")
        let kept = (0..<4).map { _ in tokens.issue(session: "a") }
        #expect(tokens.claim(first, session: "a") == .unknown)
        #expect(tokens.claim(kept[0], session: "a") == .fresh)
        for _ in 0..<1000 { _ = tokens.issue(session: "b") }
        let c = tokens.issue(session: "c")  // a third session: "a", used longest ago, goes
        #expect(tokens.claim(kept[1], session: "a") == .unknown)
        #expect(tokens.claim(c, session: "c") == .fresh)
        #expect(tokens.count <= 8)
    }

    @Test func loggingOutForgetsTheSessionsTokens() {
        let tokens = FormTokens()
        let t = tokens.issue(session: "a")
        tokens.end(session: "a")
        #expect(tokens.claim(t, session: "a") == .unknown)
        #expect(tokens.count == 0)
    }
}
