import Testing
@testable import HealthSpoolIngest

@Suite struct IngestSlotsTests {
    @Test func aPeerAtItsCapHasItsOldestIdleConnectionTakenBackOnceItsGraceIsOver() {
        var slots = IngestSlots(maxConnections: 8, perPeer: 2, graceSeconds: 1)
        #expect(slots.accept(1, peer: "10.0.0.9", now: 0) == .admit(evicting: nil))
        #expect(slots.accept(2, peer: "10.0.0.9", now: 0.1) == .admit(evicting: nil))
        // Both still within their grace: the third is closed at once, the two keep their slots.
        #expect(slots.accept(3, peer: "10.0.0.9", now: 0.5) == .refuse)
        #expect(slots.accept(4, peer: "10.0.0.9", now: 1.05) == .admit(evicting: 1))
        #expect(slots.live == 2)
        // Another address is not limited by that peer's cap.
        #expect(slots.accept(5, peer: "10.0.0.7", now: 1.1) == .admit(evicting: nil))
    }

    @Test func aFullListenerTakesBackAnIdleSlotOfThePeerHoldingMostNeverAnAuthorizedOne() {
        var slots = IngestSlots(maxConnections: 4, perPeer: 3, graceSeconds: 1)
        _ = slots.accept(1, peer: "phone", now: 0)
        _ = slots.accept(2, peer: "attacker", now: 1)
        _ = slots.accept(3, peer: "attacker", now: 2)
        _ = slots.accept(4, peer: "attacker", now: 3)
        slots.authorize(2)
        // The phone's connection is the oldest, but the attacker holds more: its oldest idle one goes.
        #expect(slots.accept(5, peer: "other", now: 10) == .admit(evicting: 3))
        slots.finish(3)
        #expect(slots.accept(6, peer: "other", now: 11) == .admit(evicting: 4))
        slots.finish(4)
        slots.authorize(1)
        slots.authorize(5)
        slots.authorize(6)
        // Every slot authorized: nothing is taken back and the accept loop waits.
        #expect(!slots.canAccept(now: 100))
        slots.finish(6)
        #expect(slots.canAccept(now: 100))
    }

    @Test func theCapPerPeerNeverExceedsTheListenersCap() {
        let slots = IngestSlots(maxConnections: 2, perPeer: 4, graceSeconds: 1)
        #expect(slots.perPeer == 2)
    }
}
