import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Plain method calls and reply reading on a `BusConnection`, for services other than the
/// notification daemon (the Secret Service). The connection's rules hold: one thread, every
/// call bounded by `timeoutMicros`.
extension BusConnection {
    /// A call that failed: the D-Bus error's name (nil when the transport failed) and message.
    struct CallFailure: Error {
        let name: String?
        let message: String
        let rc: Int32

        /// Whether the service is not on the bus at all.
        var isServiceUnknown: Bool {
            name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        }
    }

    /// Calls `member` of `interface` at `path` of `destination` with `arguments`; `read` gets the
    /// reply, positioned at its first value, and returns what it read.
    func call<T>(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusValue],
                 read: (OpaquePointer) -> T) throws(CallFailure) -> T {
        var message: OpaquePointer?
        var rc = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard rc >= 0, let message else { throw CallFailure(name: nil, message: Self.errnoText(rc), rc: rc) }
        defer { sd_bus_message_unref(message) }
        for value in arguments {
            rc = Self.append(value, to: message)
            guard rc >= 0 else { throw CallFailure(name: nil, message: "cannot write \(value.signature): \(Self.errnoText(rc))", rc: rc) }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        rc = sd_bus_call(bus, message, timeoutMicros, &error, &reply)
        defer { if let reply { sd_bus_message_unref(reply) } }
        guard rc >= 0, let reply else {
            throw CallFailure(name: error.name.map { String(cString: $0) },
                              message: error.message.map { String(cString: $0) } ?? Self.errnoText(rc), rc: rc)
        }
        return read(reply)
    }

    /// A boolean property.
    func boolProperty(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(CallFailure) -> Bool {
        var value: Int32 = 0
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        let rc = sd_bus_get_property_trivial(bus, destination, path, interface, name, &error, Self.type("b"), &value)
        guard rc >= 0 else {
            throw CallFailure(name: error.name.map { String(cString: $0) },
                              message: error.message.map { String(cString: $0) } ?? Self.errnoText(rc), rc: rc)
        }
        return value != 0
    }

    /// A string property.
    func stringProperty(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(CallFailure) -> String {
        var value: UnsafeMutablePointer<CChar>?
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        let rc = sd_bus_get_property_string(bus, destination, path, interface, name, &error, &value)
        guard rc >= 0, let value else {
            throw CallFailure(name: error.name.map { String(cString: $0) },
                              message: error.message.map { String(cString: $0) } ?? Self.errnoText(rc), rc: rc)
        }
        defer { free(value) }
        return String(cString: value)
    }

    /// A 32-bit signed integer property.
    func int32Property(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(CallFailure) -> Int32 {
        var value: Int32 = 0
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        let rc = sd_bus_get_property_trivial(bus, destination, path, interface, name, &error, Self.type("i"), &value)
        guard rc >= 0 else {
            throw CallFailure(name: error.name.map { String(cString: $0) },
                              message: error.message.map { String(cString: $0) } ?? Self.errnoText(rc), rc: rc)
        }
        return value
    }

    // MARK: Reading replies

    /// The next object path; nil when the next value is not one.
    static func readObjectPath(_ message: OpaquePointer) -> String? {
        var text: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, type("o"), &text) > 0, let text else { return nil }
        return String(cString: text)
    }

    /// The next `ao`.
    static func readObjectPaths(_ message: OpaquePointer) -> [String] {
        guard sd_bus_message_enter_container(message, type("a"), "o") > 0 else { return [] }
        var paths: [String] = []
        while let path = readObjectPath(message) { paths.append(path) }
        sd_bus_message_exit_container(message)
        return paths
    }

    /// The next `ay`.
    static func readBytes(_ message: OpaquePointer) -> [UInt8]? {
        var pointer: UnsafeRawPointer?
        var size = 0
        guard sd_bus_message_read_array(message, type("y"), &pointer, &size) >= 0 else { return nil }
        guard let pointer, size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: size))
    }

    /// The value of a Secret Service secret, `(oayays)`: session, parameters, value, content type.
    static func readSecretValue(_ message: OpaquePointer) -> [UInt8]? {
        guard sd_bus_message_enter_container(message, type("r"), "oayays") > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        guard readObjectPath(message) != nil, readBytes(message) != nil else { return nil }
        return readBytes(message)
    }
}
