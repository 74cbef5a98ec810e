import Testing
@testable import HealthSpoolIngest

@Suite struct IngestSlotsTests {
    /// Limits with a budget too large to matter, unless a test sets it.
    static func limits(perPeer: Int, grace: Double = 1, burst: Int = 1000) -> IngestLimits {
        var limits = IngestLimits()
        limits.perPeer = perPeer
        limits.graceSeconds = grace
        limits.handshakeBurst = burst
        return limits
    }

    @Test func aPeerAtItsCapHasItsOldestIdleConnectionTakenBackOnceItsGraceIsOver() {
        var slots = IngestSlots(maxConnections: 8, limits: Self.limits(perPeer: 2))
        #expect(slots.accept(1, peer: "10.0.0.9", now: 0) == .admit(evicting: nil))
        #expect(slots.accept(2, peer: "10.0.0.9", now: 0.1) == .admit(evicting: nil))
        // Both still within their grace: the third is closed at once, the two keep their slots.
        #expect(slots.accept(3, peer: "10.0.0.9", now: 0.5) == .refuse(.addressLimit))
        #expect(slots.accept(4, peer: "10.0.0.9", now: 1.05) == .admit(evicting: 1))
        #expect(slots.live == 2)
        // Another address is not limited by that peer's cap.
        #expect(slots.accept(5, peer: "10.0.0.7", now: 1.1) == .admit(evicting: nil))
    }

    @Test func aFullListenerTakesBackAnIdleSlotOfThePeerHoldingMostNeverAnAuthorizedOne() {
        var slots = IngestSlots(maxConnections: 4, limits: Self.limits(perPeer: 3))
        #expect(slots.reserved == 1)
        _ = slots.accept(1, peer: "phone", now: 0)
        _ = slots.accept(2, peer: "attacker", now: 1)
        _ = slots.accept(3, peer: "attacker", now: 1.2)
        // Three of four slots are the strangers' (one is kept for trusted addresses): the
        // attacker's third is refused; the phone's old slot is not taken, it holds less.
        #expect(slots.accept(4, peer: "attacker", now: 1.5) == .refuse(.full))
        // A newcomer takes the attacker's oldest idle one at once: it holds more than its share.
        #expect(slots.accept(5, peer: "other", now: 1.6) == .admit(evicting: 2))
        slots.finish(2)
        for fd: Int32 in [1, 3, 5] { slots.authorize(fd, now: 2) }
        #expect(slots.accept(6, peer: "attacker", now: 2.1) == .admit(evicting: nil))
        slots.authorize(6, now: 2.2)
        // Every slot authorized: nothing is taken back and the accept loop waits.
        #expect(slots.mustWait)
        #expect(slots.accept(7, peer: "someone", now: 100) == .refuse(.full))
        slots.finish(6)
        #expect(!slots.mustWait)
    }

    @Test func theCapPerPeerNeverExceedsTheListenersCap() {
        let slots = IngestSlots(maxConnections: 2, limits: Self.limits(perPeer: 4))
        #expect(slots.perPeer == 2)
    }

    @Test func twoFloodingAddressesLeaveAThirdAddressASlotAtOnce() {
        // Issue 39: two addresses reconnecting as fast as they can kept the phone out.
        var slots = IngestSlots(maxConnections: 8, limits: Self.limits(perPeer: 4))
        var fd: Int32 = 100
        var refusedAttackers = 0
        for i in 0..<400 {
            fd += 1
            let now = Double(i) * 0.001
            if case .refuse = slots.accept(fd, peer: i % 2 == 0 ? "127.0.0.2" : "127.0.0.3", now: now) { refusedAttackers += 1 }
        }
        // Strangers hold at most the unreserved six, three each.
        #expect(slots.live == 6)
        #expect(refusedAttackers == 394)
        // The phone, never seen before, takes one of theirs at once: they hold more than their share.
        guard case .admit(let evicting?) = slots.accept(1, peer: "127.0.0.1", now: 0.5) else {
            Issue.record("the phone was refused")
            return
        }
        #expect(slots.slots[evicting]?.peer != "127.0.0.1")
        // Its slot is not taken back by the flood's next connections, past its grace or not.
        for i in 0..<400 {
            fd += 1
            _ = slots.accept(fd, peer: i % 2 == 0 ? "127.0.0.2" : "127.0.0.3", now: 0.5 + Double(i) * 0.01)
        }
        #expect(slots.slots[1].map { !$0.evicted } == true)
    }

    @Test func aSlowPhoneKeepsItsSlotWhileTwelveSlowConnectionsFromThreeAddressesChurn() {
        // Issue 39: a phone whose ClientHello comes after 1.5 s lost its slot, 10 times of 10.
        var slots = IngestSlots(maxConnections: 8, limits: Self.limits(perPeer: 4))
        var fd: Int32 = 100
        let attackers = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
        for i in 0..<12 { fd += 1; _ = slots.accept(fd, peer: attackers[i % 3], now: 0) }
        #expect(slots.accept(1, peer: "127.0.0.1", now: 0.1) != .refuse(.full))
        // Every attacker reconnects as soon as it is closed, for 3 s: the phone, in its
        // handshake the whole time, keeps its slot.
        for step in 1...300 {
            fd += 1
            _ = slots.accept(fd, peer: attackers[step % 3], now: 0.1 + Double(step) * 0.01)
        }
        #expect(slots.slots[1].map { !$0.evicted } == true)
    }

    @Test func anAddressThatShowedTheTokenGetsAReservedSlotAndTakesAStrangersAtOnce() {
        var slots = IngestSlots(maxConnections: 4, limits: Self.limits(perPeer: 4))
        _ = slots.accept(1, peer: "phone", now: 0)
        slots.authorize(1, now: 0.5)
        slots.finish(1)
        // Many addresses, one connection each: no stranger is over its share.
        for (i, peer) in ["a", "b", "c"].enumerated() { #expect(slots.accept(Int32(10 + i), peer: peer, now: 10) == .admit(evicting: nil)) }
        #expect(slots.accept(20, peer: "d", now: 10.1) == .refuse(.full))
        // The reserved slot is the phone's, however many strangers knock.
        #expect(slots.accept(2, peer: "phone", now: 10.2) == .admit(evicting: nil))
        slots.finish(2)
        _ = slots.accept(21, peer: "e", now: 10.3)
        #expect(slots.live == 3)
        // With the reserved slot taken by the phone's first connection, its second takes a
        // stranger's young idle slot at once.
        #expect(slots.accept(3, peer: "phone", now: 10.4) == .admit(evicting: nil))
        guard case .admit(let evicting?) = slots.accept(4, peer: "phone", now: 10.5) else {
            Issue.record("the trusted address was refused")
            return
        }
        #expect(["a", "b", "c", "e"].contains(slots.slots[evicting]?.peer ?? ""))
    }

    @Test func trustLapsesAfterItsTime() {
        var limits = Self.limits(perPeer: 4)
        limits.trustSeconds = 100
        var slots = IngestSlots(maxConnections: 4, limits: limits)
        _ = slots.accept(1, peer: "phone", now: 0)
        slots.authorize(1, now: 0)
        slots.finish(1)
        #expect(slots.trust.trusts("phone", now: 99))
        #expect(!slots.trust.trusts("phone", now: 100))
        _ = slots.accept(2, peer: "phone", now: 200)
        #expect(slots.slots[2]?.trusted == false)
    }

    @Test func anAddressOverItsHandshakeBudgetIsRefusedBeforeItCostsAHandshake() {
        var limits = Self.limits(perPeer: 4, burst: 3)
        limits.handshakesPerSecond = 1
        var slots = IngestSlots(maxConnections: 8, limits: limits)
        for fd in Int32(1)...3 {
            #expect(slots.accept(fd, peer: "x", now: 0) == .admit(evicting: nil))
            slots.finish(fd)
        }
        #expect(slots.accept(4, peer: "x", now: 0.5) == .refuse(.handshakeBudget))
        // Another address has its own budget.
        #expect(slots.accept(5, peer: "y", now: 0.5) == .admit(evicting: nil))
        // One more a second.
        #expect(slots.accept(6, peer: "x", now: 1.0) == .admit(evicting: nil))
        #expect(slots.accept(7, peer: "x", now: 1.1) == .refuse(.handshakeBudget))
    }
}

@Suite struct IngestHandshakeBudgetTests {
    @Test func theBucketRefillsUpToItsBurst() {
        var b = IngestHandshakeBudget(burst: 2, perSecond: 0.5)
        b.spend("p", now: 0)
        b.spend("p", now: 0)
        #expect(!b.allows("p", now: 1))
        #expect(b.allows("p", now: 2))
        #expect(b.tokens("p", now: 1000) == 2)
    }

    @Test func manyAddressesAreForgottenFullestFirst() {
        var b = IngestHandshakeBudget(burst: 4, perSecond: 1, maxPeers: 3)
        b.spend("a", now: 0)
        b.spend("b", now: 10)
        b.spend("c", now: 10)
        b.spend("c", now: 10)
        b.spend("d", now: 10)
        #expect(b.buckets.count == 3)
        #expect(b.buckets["a"] == nil)   // full again by 10 s: forgetting it changes nothing
        #expect(b.tokens("c", now: 10) == 2)
    }
}

@Suite struct IngestRefusalTallyTests {
    @Test func theFirstRefusalIsSaidAtOnceThenOneSummaryAMinute() {
        var t = IngestRefusalTally(intervalSeconds: 60)
        #expect(t.summary(now: 0) == nil)
        t.record(.handshake)
        #expect(t.summary(now: 1).map { $0.map(\.1) } == [1])
        for _ in 0..<2_125 { t.record(.addressLimit) }
        t.record(.handshake)
        #expect(t.summary(now: 30) == nil)
        #expect(t.summary(now: 60.9) == nil)
        let s = t.summary(now: 61)
        #expect(s?.map(\.0) == [.addressLimit, .handshake])
        #expect(s?.map(\.1) == [2_125, 1])
        #expect(t.summary(now: 200) == nil)
        t.record(.evicted)
        #expect(t.flush()?.map(\.1) == [1])
        #expect(t.flush() == nil)
    }

    @Test func theSummaryNamesEachReasonAndTheMetric() {
        let text = IngestRefusalTally.text([(.addressLimit, 2_000), (.handshakeBudget, 125)], seconds: 60)
        #expect(text.contains("2125 connection(s)"))
        #expect(text.contains("2000 over the per-address limit"))
        #expect(text.contains("healthspool_ingest_connections_refused_total"))
    }
}
