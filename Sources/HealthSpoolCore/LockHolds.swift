/// Whether the daemon follows the user's logind session lock (`lock.follow_session`).
public enum SessionFollow: String, CaseIterable, Sendable {
    /// Follow the session when the user has a graphical one (x11, wayland, mir).
    case auto
    /// Follow the user's session even if it is not graphical (a tty, ssh).
    case on
    /// Never: the lock flag alone.
    case off
}

/// What can hold the daemon locked, and since when: the lock flag (`healthspool lock`), the
/// user's session lock (logind's `LockedHint`, `Lock`/`Unlock`) and a suspend under way
/// (`PrepareForSleep`). The effective lock is any of them; the flag is the manual override, so
/// the session unlocking never lifts it. Pure: the daemon feeds it events with the time they
/// came at and carries out the change it returns.
public struct LockHolds: Sendable, Equatable {
    /// One thing that can hold the lock, in the order `status` names them.
    public enum Holder: String, Sendable, CaseIterable, Comparable {
        case flag
        case session
        case sleep
        /// The session's keyring is locked and holds a secret the daemon needs.
        case keyring

        /// How `status` names it.
        public var phrase: String {
            switch self {
            case .flag: "the lock flag (healthspool lock)"
            case .session: "the session lock"
            case .sleep: "a suspend"
            case .keyring: "the locked keyring"
            }
        }

        public static func < (a: Holder, b: Holder) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// What a change did to the effective lock.
    public enum Change: Equatable, Sendable {
        /// Nothing held the daemon and now something does.
        case locked
        /// The last hold went: the spool is read and what waited drains.
        case unlocked
    }

    /// The holders in force, each with the time it took hold.
    public private(set) var since: [Holder: Timestamp] = [:]

    public init() {}

    /// `holder` now holds (`true`) or no longer holds, as of `now`; returns the change to the
    /// effective lock, or nil when it stays as it was. A holder already in force keeps its
    /// first `since`.
    @discardableResult
    public mutating func set(_ holder: Holder, _ holds: Bool, now: Timestamp) -> Change? {
        let was = isLocked
        if holds {
            if since[holder] == nil { since[holder] = now }
        } else {
            since[holder] = nil
        }
        switch (was, isLocked) {
        case (false, true): return .locked
        case (true, false): return .unlocked
        default: return nil
        }
    }

    /// Whether anything holds the daemon locked.
    public var isLocked: Bool { !since.isEmpty }

    /// The holders in force, in `Holder` order, with their times.
    public var holders: [(holder: Holder, since: Timestamp)] {
        since.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Since when the daemon is locked: the earliest hold in force.
    public var lockedSince: Timestamp? { since.values.min() }

    /// Who holds the lock, in words: "the lock flag (healthspool lock) and the session lock";
    /// nil when unlocked.
    public var holdersText: String? {
        let names = holders.map(\.holder.phrase)
        switch names.count {
        case 0: return nil
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }

    /// What must happen for the daemon to unlock, in words.
    public var unlockHint: String? {
        guard isLocked else { return nil }
        var steps: [String] = []
        if since[.flag] != nil { steps.append("'healthspool unlock'") }
        if since[.session] != nil { steps.append("unlocking the session") }
        if since[.sleep] != nil { steps.append("the resume") }
        if since[.keyring] != nil { steps.append("unlocking the keyring") }
        return steps.joined(separator: " and ")
    }
}

/// Which logind session the daemon follows, from what logind says about the user.
public enum SessionChoice {
    /// One of the user's sessions: its id and `Type` (x11, wayland, mir, tty, …).
    public struct Session: Sendable, Equatable {
        public var id: String
        public var type: String
        public init(id: String, type: String) {
            self.id = id
            self.type = type
        }

        /// Whether it is a graphical session.
        public var isGraphical: Bool { ["x11", "wayland", "mir"].contains(type) }
    }

    /// The session to follow, or nil for the flag alone: the session `XDG_SESSION_ID` names if
    /// set, else the user's `Display` session, else one of the user's graphical sessions; `on`
    /// takes it whatever its type (and, failing those, the user's first session), `auto` only
    /// when it is graphical, `off` never.
    public static func choose(_ mode: SessionFollow, environmentSession: String?, display: String?,
                              sessions: [Session]) -> Session? {
        if mode == .off { return nil }
        func named(_ id: String?) -> Session? {
            guard let id, !id.isEmpty else { return nil }
            return sessions.first { $0.id == id }
        }
        let chosen = named(environmentSession) ?? named(display) ?? sessions.first(where: \.isGraphical)
            ?? (mode == .on ? sessions.first : nil)
        guard let chosen else { return nil }
        return mode == .on || chosen.isGraphical ? chosen : nil
    }
}
