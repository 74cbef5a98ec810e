import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// Where healthspool's secrets live and whether its health data is encrypted at rest: what
/// `config check`, `config show` and `status` report (never a secret itself).
extension Configuration {
    /// The web secret's file (its fallback when no keyring holds it).
    public var webSecretPath: String { stateDir + "/web.secret" }

    /// Each secret and where it lives now. The gateway's only when `gateway.auth` needs one.
    public func secretPlaces() -> [(name: SecretName, place: SecretPlace)] {
        var places: [(SecretName, SecretPlace)] = []
        if settings.gatewayAuth != .none {
            places.append((.gateway, Credentials.place(file: settings.gatewayCredentialsFile.map(paths.expand), environment: environment,
                                                       keyring: settings.secretsKeyring)))
        }
        places.append((.web, KeyringSecret.place(.web, file: webSecretPath, use: settings.secretsKeyring, environment: environment)))
        if settings.ingestListen != nil || FileSystem.exists(ingestTokenPath) {
            places.append((.ingest, KeyringSecret.place(.ingest, file: ingestTokenPath, use: ingestTokenKeyring, environment: environment)))
        }
        return places
    }

    /// The secrets as JSON: `[{"name", "where", "kind"}]`, looked up now (files, keyring).
    public func secretsJSON() -> JSONValue {
        .array(secretPlaces().map { .object([("name", .string($0.name.rawValue)), ("kind", .string($0.place.kind)), ("where", .string($0.place.text))]) })
    }

    /// The places health data is kept: the store and its WAL, the notes' audio, the spool's
    /// archive/ and failed/ folders.
    public var dataPlaces: [(role: String, path: String)] {
        [("store", storePath), ("WAL", storePath + "-wal"), ("notes audio", stateDir + "/notes"),
         ("archive/", spool.archive), ("failed/", spool.failed)]
    }

    /// Whether each place is encrypted at rest (`root`: where /proc and /sys are read, for tests).
    public func protectionReport(root: String = "/") -> ProtectionReport {
        ProtectionProbe(root: root).report(dataPlaces)
    }
}

extension ProtectionReport {
    /// As `status --json` and `config check --json` give it.
    public var json: JSONValue {
        .object([("allProtected", .bool(allProtected)), ("warning", warning.map(JSONValue.string) ?? .null),
                 ("places", .array(places.map { .object([("role", .string($0.role)), ("path", .string($0.path)),
                                                         ("protection", .string($0.protection.kind)), ("text", .string($0.protection.text))]) }))])
    }
}
