import CSystemd
import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Why the keyring could not be used.
public enum KeyringError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No session bus, or no Secret Service on it: secrets stay in files.
    case unavailable(String)
    /// The keyring (or the item) is locked; it unlocks at login, or in the keyring manager.
    case locked(SecretName?)
    /// The Secret Service answered a call with an error.
    case call(String, String)
    /// The session's Secret Service has no default collection to store into.
    case noDefaultCollection

    public var description: String {
        switch self {
        case let .unavailable(why): "no keyring (Secret Service) in this session: \(why)"
        case let .locked(name):
            "the keyring is locked\(name.map { " (it holds \($0.rawValue))" } ?? ""); unlock it (log in to the desktop, or open your keyring manager) and try again"
        case let .call(member, why): "the keyring's \(member) failed: \(why)"
        case .noDefaultCollection: "the keyring has no default collection (alias 'default'); make one in your keyring manager"
        }
    }
}

/// What the keyring holds for one secret.
public enum KeyringItemState: Sendable, Equatable {
    case absent
    case locked
    case unlocked
}

/// The Secret Service (`org.freedesktop.secrets`) of the user's session over sd-bus: search,
/// read, store and delete healthspool's items (attributes `application = healthspool`,
/// `setting = <name>`) in the default collection. A "plain" session: the secret travels the
/// session bus unencrypted, which only the user's own processes can connect to.
///
/// Not Sendable: it owns a `BusConnection`; make it, use it and drop it on one thread
/// (`SecretService.with`). Every call is bounded by the timeout.
public final class SecretService {
    static let service = "org.freedesktop.secrets"
    static let servicePath = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"
    static let promptInterface = "org.freedesktop.Secret.Prompt"

    private let connection: BusConnection
    private let session: String

    /// Connects to the session bus the environment names and opens a plain session with its
    /// Secret Service. Throws `.unavailable` when there is none.
    public init(environment: [String: String], timeout: Duration = .seconds(5)) throws(KeyringError) {
        guard let address = SessionBusAddress.resolve(environment: environment) else {
            throw .unavailable("neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        }
        // A socket that is not there: no bus (a server, a test's HOME), without sd-bus's wait.
        if address.hasPrefix("unix:path=") {
            let path = String(address.dropFirst("unix:path=".count).prefix { $0 != "," && $0 != ";" }).removingAddressEscapes
            if !address.contains(";"), !FileSystem.exists(path) { throw .unavailable("no session bus at \(path)") }
        }
        let micros = UInt64(max(timeout.components.seconds, 0)) * 1_000_000 + UInt64(max(timeout.components.attoseconds, 0) / 1_000_000_000_000)
        do {
            connection = try BusConnection(address: address, timeoutMicros: max(micros, 1000))
        } catch {
            throw .unavailable("\(error)")
        }
        do {
            session = try connection.call(Self.service, Self.servicePath, Self.serviceInterface, "OpenSession",
                                          [.string("plain"), .variant(.string(""))]) { reply -> String? in
                guard sd_bus_message_skip(reply, "v") >= 0 else { return nil }
                return BusConnection.readObjectPath(reply)
            } ?? "/"
        } catch {
            if error.isServiceUnknown { throw .unavailable("no org.freedesktop.secrets on the session bus") }
            throw .call("OpenSession", error.message)
        }
    }

    /// Runs `body` with a connection made for it, on this thread; nil when there is no keyring
    /// (`secrets.keyring = off`, no session bus, no Secret Service, or one with no default
    /// collection to keep anything in).
    public static func with<T>(use: KeyringUse, environment: [String: String],
                               _ body: (SecretService) throws(KeyringError) -> T) throws(KeyringError) -> T? {
        guard use != .off else { return nil }
        let service: SecretService
        do { service = try SecretService(environment: environment) } catch {
            if case .unavailable = error { return nil }
            throw error
        }
        // A Secret Service with no default collection (gnome-keyring in a session that no login
        // unlocked, a fresh account) has nowhere to keep anything: as no keyring at all.
        do { return try body(service) } catch {
            if case .noDefaultCollection = error { return nil }
            throw error
        }
    }

    /// The default collection's object path (`ReadAlias("default")`).
    public func defaultCollection() throws(KeyringError) -> String {
        let path: String?
        do {
            path = try connection.call(Self.service, Self.servicePath, Self.serviceInterface, "ReadAlias", [.string("default")]) {
                BusConnection.readObjectPath($0)
            }
        } catch { throw .call("ReadAlias", error.message) }
        guard let path, path != "/" else { throw .noDefaultCollection }
        return path
    }

    /// Whether the default collection is locked.
    public func isLocked() throws(KeyringError) -> Bool {
        let collection = try defaultCollection()
        do { return try connection.boolProperty(Self.service, collection, Self.collectionInterface, "Locked") } catch {
            throw .call("Locked", error.message)
        }
    }

    /// The items with `attributes`: (unlocked, locked).
    func search(_ attributes: [(String, String)]) throws(KeyringError) -> (unlocked: [String], locked: [String]) {
        do {
            return try connection.call(Self.service, Self.servicePath, Self.serviceInterface, "SearchItems",
                                       [.stringDictionary(attributes)]) { reply in
                (BusConnection.readObjectPaths(reply), BusConnection.readObjectPaths(reply))
            }
        } catch { throw .call("SearchItems", error.message) }
    }

    /// Whether the keyring holds `name`, and whether it is locked.
    public func state(of name: SecretName) throws(KeyringError) -> KeyringItemState {
        let found = try search(name.attributes)
        if !found.unlocked.isEmpty { return .unlocked }
        return found.locked.isEmpty ? .absent : .locked
    }

    /// Whether any healthspool item is locked.
    public func anyLocked() throws(KeyringError) -> Bool {
        !(try search([("application", SecretName.application)]).locked.isEmpty)
    }

    /// Asks the service to unlock `objects` without a prompt: what it could unlock, and whether
    /// a prompt (a password dialog) would be needed for the rest. The prompt is dismissed, not
    /// shown: a daemon does not pop up dialogs; the keyring unlocks at login.
    func unlock(_ objects: [String]) throws(KeyringError) -> (unlocked: [String], needsPrompt: Bool) {
        let answer: (unlocked: [String], prompt: String)
        do {
            answer = try connection.call(Self.service, Self.servicePath, Self.serviceInterface, "Unlock",
                                         [.array(elementSignature: "o", objects.map(BusValue.objectPath))]) { reply in
                (BusConnection.readObjectPaths(reply), BusConnection.readObjectPath(reply) ?? "/")
            }
        } catch { throw .call("Unlock", error.message) }
        if answer.prompt != "/" {
            _ = try? connection.call(Self.service, answer.prompt, Self.promptInterface, "Dismiss", []) { _ in () }
        }
        return (answer.unlocked, answer.prompt != "/")
    }

    /// The secret `name`, or nil when the keyring does not hold it. Throws `.locked` when it
    /// does but it is locked.
    public func read(_ name: SecretName) throws(KeyringError) -> [UInt8]? {
        let found = try search(name.attributes)
        var items = found.unlocked
        if items.isEmpty, !found.locked.isEmpty {
            let unlocked = try unlock(found.locked)
            guard !unlocked.unlocked.isEmpty else { throw .locked(name) }
            items = unlocked.unlocked
        }
        guard let item = items.first else { return nil }
        do {
            return try connection.call(Self.service, item, Self.itemInterface, "GetSecret", [.objectPath(session)]) {
                BusConnection.readSecretValue($0)
            }
        } catch {
            if error.name == "org.freedesktop.Secret.Error.IsLocked" { throw .locked(name) }
            throw .call("GetSecret", error.message)
        }
    }

    /// Stores `secret` as `name` in the default collection, replacing the item there.
    public func store(_ name: SecretName, secret: [UInt8]) throws(KeyringError) {
        let collection = try defaultCollection()
        let properties = BusValue.variantDictionary([
            ("org.freedesktop.Secret.Item.Label", .string(name.label)),
            ("org.freedesktop.Secret.Item.Attributes", .stringDictionary(name.attributes)),
        ])
        let value = BusValue.structure([.objectPath(session), .bytes([]), .bytes(secret), .string("text/plain")])
        let prompt: String?
        do {
            prompt = try connection.call(Self.service, collection, Self.collectionInterface, "CreateItem",
                                         [properties, value, .boolean(true)]) { reply in
                _ = BusConnection.readObjectPath(reply)
                return BusConnection.readObjectPath(reply)
            }
        } catch {
            if error.name == "org.freedesktop.Secret.Error.IsLocked" { throw .locked(name) }
            throw .call("CreateItem", error.message)
        }
        if let prompt, prompt != "/" {
            _ = try? connection.call(Self.service, prompt, Self.promptInterface, "Dismiss", []) { _ in () }
            throw .locked(name)
        }
    }

    /// Deletes every item named `name`; returns how many.
    @discardableResult
    public func delete(_ name: SecretName) throws(KeyringError) -> Int {
        let found = try search(name.attributes)
        if !found.locked.isEmpty { throw .locked(name) }
        for item in found.unlocked {
            do {
                _ = try connection.call(Self.service, item, Self.itemInterface, "Delete", []) { _ in () }
            } catch { throw .call("Delete", error.message) }
        }
        return found.unlocked.count
    }
}

extension String {
    /// A D-Bus address value with its `%XX` escapes decoded.
    var removingAddressEscapes: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        let raw = Array(utf8)
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "%"), i + 2 < raw.count, let v = UInt8(String(decoding: raw[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(v)
                i += 3
            } else {
                bytes.append(raw[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
