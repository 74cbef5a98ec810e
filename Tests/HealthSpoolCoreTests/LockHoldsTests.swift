import HealthSpoolCore
import Testing

@Suite struct LockHoldsTests {
    typealias Holder = LockHolds.Holder
    let t0 = Timestamp(millis: 1_000_000)
    let t1 = Timestamp(millis: 2_000_000)
    let t2 = Timestamp(millis: 3_000_000)

    /// Every combination of flag × session × sleep: locked when any holds, named in order.
    @Test(arguments: [false, true], [false, true])
    func anyHolderLocks(flag: Bool, session: Bool) {
        for sleep in [false, true] {
            var holds = LockHolds()
            holds.set(.flag, flag, now: t0)
            holds.set(.session, session, now: t1)
            holds.set(.sleep, sleep, now: t2)
            #expect(holds.isLocked == (flag || session || sleep))
            let expected = [(Holder.flag, flag), (.session, session), (.sleep, sleep)].filter(\.1).map(\.0)
            #expect(holds.holders.map(\.holder) == expected)
            #expect(holds.lockedSince == (flag ? t0 : session ? t1 : sleep ? t2 : nil))
        }
    }

    @Test func theFlagHoldsWhenTheSessionUnlocks() {
        var holds = LockHolds()
        #expect(holds.set(.session, true, now: t0) == .locked)
        #expect(holds.set(.flag, true, now: t1) == nil, "already locked: no change to carry out")
        #expect(holds.set(.session, false, now: t2) == nil, "the flag is the manual override")
        #expect(holds.isLocked && holds.holders.map(\.holder) == [.flag])
        #expect(holds.holdersText == "the lock flag (healthspool lock)")
        #expect(holds.unlockHint == "'healthspool unlock'")
        #expect(holds.set(.flag, false, now: t2) == .unlocked)
        #expect(!holds.isLocked && holds.holdersText == nil && holds.unlockHint == nil)
    }

    @Test func sleepLocksUntilResumeAndKeepsTheFirstSince() {
        var holds = LockHolds()
        #expect(holds.set(.sleep, true, now: t0) == .locked)
        #expect(holds.set(.sleep, true, now: t1) == nil)
        #expect(holds.since[.sleep] == t0, "a repeated report keeps when the hold began")
        #expect(holds.set(.session, true, now: t1) == nil)
        #expect(holds.holdersText == "the session lock and a suspend")
        #expect(holds.unlockHint == "unlocking the session and the resume")
        #expect(holds.set(.sleep, false, now: t2) == nil)
        #expect(holds.set(.session, false, now: t2) == .unlocked)
        #expect(holds.set(.session, false, now: t2) == nil, "an unlock when unlocked changes nothing")
    }

    @Test func threeHoldersAreNamedInOrder() {
        var holds = LockHolds()
        holds.set(.sleep, true, now: t0)
        holds.set(.flag, true, now: t1)
        holds.set(.session, true, now: t2)
        #expect(holds.holdersText == "the lock flag (healthspool lock), the session lock and a suspend")
        #expect(holds.lockedSince == t0)
    }
}

@Suite struct SessionChoiceTests {
    typealias S = SessionChoice.Session
    let tty = S(id: "1", type: "tty")
    let wayland = S(id: "2", type: "wayland")
    let x11 = S(id: "3", type: "x11")

    @Test func offNeverFollows() {
        #expect(SessionChoice.choose(.off, environmentSession: "2", display: "2", sessions: [wayland]) == nil)
    }

    @Test func autoTakesTheEnvironmentsSessionThenTheDisplayThenAGraphicalOne() {
        #expect(SessionChoice.choose(.auto, environmentSession: "3", display: "2", sessions: [tty, wayland, x11]) == x11)
        #expect(SessionChoice.choose(.auto, environmentSession: nil, display: "2", sessions: [tty, x11, wayland]) == wayland)
        #expect(SessionChoice.choose(.auto, environmentSession: "", display: "", sessions: [tty, x11]) == x11)
        #expect(SessionChoice.choose(.auto, environmentSession: "9", display: nil, sessions: [tty, x11]) == x11,
                "a session id logind does not list is passed over")
    }

    @Test func autoWithoutAGraphicalSessionFollowsNone() {
        #expect(SessionChoice.choose(.auto, environmentSession: nil, display: "", sessions: [tty]) == nil)
        #expect(SessionChoice.choose(.auto, environmentSession: "1", display: "", sessions: [tty, wayland]) == nil,
                "the environment's session is the one, and it is not graphical")
        #expect(SessionChoice.choose(.auto, environmentSession: nil, display: nil, sessions: []) == nil)
    }

    @Test func onFollowsANonGraphicalSession() {
        #expect(SessionChoice.choose(.on, environmentSession: "1", display: "", sessions: [tty, wayland]) == tty)
        #expect(SessionChoice.choose(.on, environmentSession: nil, display: "", sessions: [tty, wayland]) == wayland)
        #expect(SessionChoice.choose(.on, environmentSession: nil, display: "", sessions: [tty]) == tty)
        #expect(SessionChoice.choose(.on, environmentSession: nil, display: "", sessions: []) == nil)
    }

    @Test func theSettingReadsItsThreeValues() throws {
        var s = Settings()
        #expect(s.lockFollowSession == .auto)
        let key = try #require(SettingKey.all.first { $0.name == "lock.follow_session" })
        #expect(key.defaultText == "auto")
        #expect(key.summary.contains("One of: auto, on, off."))
        _ = s
        s = try SettingsReader.resolve(files: [], environment: ["HEALTHSPOOL_LOCK_FOLLOW_SESSION": "OFF"])
        #expect(s.lockFollowSession == .off)
    }

    /// Issue 31: a locked keyring holds the daemon like the session lock; the flag still wins.
    @Test func aLockedKeyringHoldsUntilUnlockedAndSaysHow() {
        let (t0, t1, t2) = (Timestamp(millis: 1_000_000), Timestamp(millis: 2_000_000), Timestamp(millis: 3_000_000))
        var holds = LockHolds()
        #expect(holds.set(.keyring, true, now: t0) == .locked)
        #expect(holds.holdersText == "the locked keyring" && holds.unlockHint == "unlocking the keyring")
        #expect(holds.set(.flag, true, now: t1) == nil)
        #expect(holds.holders.map(\.holder) == [.flag, .keyring])
        #expect(holds.set(.keyring, false, now: t2) == nil)   // the flag still holds
        #expect(holds.set(.flag, false, now: t2) == .unlocked)
    }

    @Test func theKeyringSettingIsAutoOrOff() throws {
        #expect(Settings().secretsKeyring == .auto)
        let s = try SettingsReader.resolve(files: [], environment: ["HEALTHSPOOL_SECRETS_KEYRING": "off"])
        #expect(s.secretsKeyring == .off)
        #expect(SettingsChange.between(Settings(), s).contains(.sync))
    }
}
