/// What the notification daemon reports back about a notification (its signals).
public enum NotificationEvent: Sendable, Equatable {
    /// `ActionInvoked`: the user pressed the button whose key is `action` ("default" for a
    /// click on the notification itself).
    case actionInvoked(id: UInt32, action: String)
    /// `NotificationClosed`, with the reason the daemon gave.
    case closed(id: UInt32, reason: CloseReason)

    /// Why a notification was closed (the specification's codes 1–4).
    public enum CloseReason: Sendable, Equatable, CustomStringConvertible {
        case expired, dismissed, closedByCall, undefined
        case other(UInt32)

        public init(code: UInt32) {
            switch code {
            case 1: self = .expired
            case 2: self = .dismissed
            case 3: self = .closedByCall
            case 4: self = .undefined
            default: self = .other(code)
            }
        }

        public var description: String {
            switch self {
            case .expired: "expired"
            case .dismissed: "dismissed"
            case .closedByCall: "closed by call"
            case .undefined: "undefined"
            case .other(let code): "reason \(code)"
            }
        }
    }

    /// The notification this event is about.
    public var id: UInt32 {
        switch self {
        case .actionInvoked(let id, _), .closed(let id, _): id
        }
    }
}
