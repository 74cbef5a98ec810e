import Foundation

/// A real D-Bus session bus of the test's own (`dbus-daemon --session` on a socket in a
/// temporary directory), optionally with python3-dbusmock's `notification_daemon` template as
/// the notification service. Everything started is stopped by its PID in `stop()`.
final class PrivateSessionBus {
    let directory: String
    var socketPath: String { directory + "/bus" }
    var address: String { "unix:path=" + socketPath }
    private var bus: Process?
    private var mock: Process?

    init() throws {
        directory = NSTemporaryDirectory() + "hs-bus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Starts dbus-daemon on `socketPath` and waits until it answers.
    func startBus() throws {
        bus = try Self.launch("/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=" + address])
        try waitUntil("dbus-daemon to answer on \(address)") { self.call(["org.freedesktop.DBus.GetId"]) != nil }
    }

    /// Starts the notification daemon mock and waits until it owns org.freedesktop.Notifications.
    func startNotificationDaemon() throws {
        mock = try Self.launch("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon"],
                               environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        try waitUntil("dbusmock to own org.freedesktop.Notifications") {
            self.call(["org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"])?.contains("true") == true
        }
    }

    /// Emits `ActionInvoked(id, action)` from the notification service, as a user's click would.
    func emitActionInvoked(id: UInt32, action: String) throws {
        let out = call(["org.freedesktop.DBus.Mock.EmitSignal", "--", "org.freedesktop.Notifications", "ActionInvoked", "us",
                        "[<uint32 \(id)>, <'\(action)'>]"], destination: "org.freedesktop.Notifications",
                       path: "/org/freedesktop/Notifications")
        guard out != nil else { throw BusTestError("EmitSignal failed") }
    }

    /// Stops the bus and the mock, as when a desktop session ends; the directory stays.
    func stopProcesses() {
        for process in [mock, bus].compactMap({ $0 }) where process.isRunning {
            // SIGKILL: the test process's spawned children may inherit a mask that blocks SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        mock = nil
        bus = nil
        try? FileManager.default.removeItem(atPath: socketPath)
    }

    func stop() {
        stopProcesses()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    /// `gdbus call` on this bus; its output, or nil when it failed.
    func call(_ method: [String], destination: String = "org.freedesktop.DBus", path: String = "/org/freedesktop/DBus") -> String? {
        guard let process = try? Self.launch("/usr/bin/gdbus", ["call", "--address", address, "--dest", destination,
                                                                 "--object-path", path, "--timeout", "2", "--method"] + method,
                                             output: true) else { return nil }
        let data = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    private func waitUntil(_ what: String, _ done: () -> Bool) throws {
        for _ in 0..<200 {
            if done() { return }
            usleep(50_000)
        }
        throw BusTestError("timed out waiting for \(what)")
    }

    private static func launch(_ path: String, _ arguments: [String], environment: [String: String] = [:], output: Bool = false) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if output { process.standardOutput = Pipe() } else { process.standardOutput = FileHandle.nullDevice }
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}

struct BusTestError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
