#if canImport(Glibc)
import Glibc
#endif

/// Why the user's systemd manager did not start a unit. Each case names what the user (or
/// whoever looks after the computer) can do.
public enum UserManagerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No systemd user manager answers at `socket` (no `$XDG_RUNTIME_DIR`, or nothing listens:
    /// a session without systemd, a container).
    case noUserManager(socket: String, reason: String)
    /// The manager knows no such unit: the package is not installed (or only half).
    case notInstalled(unit: String)
    /// The manager refused the start (the unit is masked, the call failed).
    case refused(unit: String, reason: String)
    /// The unit was started and did not come up: its `ActiveState`, the service's `Result`
    /// (`exit-code`, `timeout`, …) and its main process's exit status.
    case failed(unit: String, state: String, result: String, exitStatus: Int32)
    /// The start job was still running after `seconds`.
    case timedOut(unit: String, seconds: Int)

    public var description: String {
        switch self {
        case let .noUserManager(socket, reason): "no systemd user manager answers at \(socket) (\(reason))"
        case let .notInstalled(unit): "the systemd user manager has no unit \(unit) (is the package installed?)"
        case let .refused(unit, reason): "the systemd user manager did not start \(unit): \(reason)"
        case let .failed(unit, state, result, status): "\(unit) did not start: it is \(state) (result \(result), exit status \(status))"
        case let .timedOut(unit, seconds): "\(unit) was still starting after \(seconds) s"
        }
    }
}

/// The calling user's systemd manager, asked over sd-bus on its private socket
/// (`$XDG_RUNTIME_DIR/systemd/private`, what `systemctl --user` uses first): no session bus and
/// no `systemctl` binary needed, and each way of failing is a case of `UserManagerError`.
public enum UserManager {
    static let service = "org.freedesktop.systemd1"
    static let managerPath = "/org/freedesktop/systemd1"
    static let managerInterface = "org.freedesktop.systemd1.Manager"

    /// Starts `unit` and waits until its start job is done (for a `Type=notify` service: until
    /// it sent READY=1 or failed), at most `waitSeconds`. Returns at once when it already runs.
    public static func start(_ unit: String, runtimeDir: String?, waitSeconds: Int = 60) throws(UserManagerError) {
        guard let runtimeDir, runtimeDir.hasPrefix("/") else {
            throw .noUserManager(socket: "$XDG_RUNTIME_DIR/systemd/private", reason: "XDG_RUNTIME_DIR is not set")
        }
        let socket = runtimeDir + "/systemd/private"
        let bus: BusConnection
        do {
            bus = try BusConnection(address: "unix:path=" + SessionBusAddress.escape(socket), timeoutMicros: 10_000_000, busClient: false)
        } catch {
            throw .noUserManager(socket: socket, reason: (error as? NotificationError).map(reason) ?? "\(error)")
        }
        let job: String
        do {
            job = try bus.call(service, managerPath, managerInterface, "StartUnit", [.string(unit), .string("replace")]) {
                BusConnection.readObjectPath($0) ?? ""
            }
        } catch {
            switch error.name {
            case "org.freedesktop.systemd1.NoSuchUnit": throw .notInstalled(unit: unit)
            case nil where error.rc == -ENOENT || error.rc == -ECONNREFUSED || error.rc == -ECONNRESET:
                throw .noUserManager(socket: socket, reason: error.message)
            default: throw .refused(unit: unit, reason: error.message)
            }
        }
        // The job object exists while the job runs; once it is gone, the unit's state is the answer.
        var waited = 0
        while (try? bus.stringProperty(service, job, "org.freedesktop.systemd1.Job", "State")) != nil {
            guard waited < waitSeconds * 10 else { throw .timedOut(unit: unit, seconds: waitSeconds) }
            usleep(100_000)
            waited += 1
        }
        let path: String
        let state: String
        do {
            path = try bus.call(service, managerPath, managerInterface, "GetUnit", [.string(unit)]) { BusConnection.readObjectPath($0) ?? "" }
            state = try bus.stringProperty(service, path, "org.freedesktop.systemd1.Unit", "ActiveState")
        } catch {
            throw .refused(unit: unit, reason: error.message)
        }
        guard state != "active" else { return }
        let result = (try? bus.stringProperty(service, path, "org.freedesktop.systemd1.Service", "Result")) ?? "unknown"
        let status = (try? bus.int32Property(service, path, "org.freedesktop.systemd1.Service", "ExecMainStatus")) ?? 0
        throw .failed(unit: unit, state: state, result: result, exitStatus: status)
    }

    private static func reason(_ error: NotificationError) -> String {
        if case let .noSessionBus(_, reason) = error { return reason }
        return "\(error)"
    }
}
