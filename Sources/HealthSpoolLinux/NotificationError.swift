/// Why a desktop notification could not be shown.
public enum NotificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session bus to talk to: none is configured, nothing listens at the address, or it
    /// refused us. A retry helps only once a desktop session has started (`DesktopNotifier`'s
    /// caller reconnects later).
    case noSessionBus(address: String, reason: String)
    /// The session bus runs but nothing owns `org.freedesktop.Notifications`.
    case noNotificationDaemon(address: String)
    /// The bus or the notification daemon did not answer within the timeout.
    case timedOut(seconds: Double)
    /// The connection broke; a new one may work.
    case connectionLost(reason: String)
    /// The notification daemon answered with a D-Bus error.
    case refused(name: String, message: String)
    /// The notifier was closed.
    case closed

    /// Whether trying again soon, on a new connection, can help.
    public var isRetryable: Bool {
        switch self {
        case .timedOut, .connectionLost: true
        case .noSessionBus, .noNotificationDaemon, .refused, .closed: false
        }
    }

    public var description: String {
        switch self {
        case .noSessionBus(let address, let reason):
            "no D-Bus session bus at \(address) (\(reason)): desktop notifications need a logged-in desktop session; reminders go to the journal only"
        case .noNotificationDaemon(let address):
            "no notification daemon on the session bus at \(address) (nothing owns org.freedesktop.Notifications): start the desktop's notification service"
        case .timedOut(let seconds):
            "the session bus did not answer within \(seconds) s"
        case .connectionLost(let reason):
            "the session bus connection was lost (\(reason))"
        case .refused(let name, let message):
            "the notification daemon refused the notification: \(name): \(message)"
        case .closed:
            "the desktop notifier was closed"
        }
    }
}
