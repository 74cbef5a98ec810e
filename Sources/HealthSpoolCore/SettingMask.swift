/// Hides secrets in setting values shown to the user (`healthspool config show`): a secret is
/// never printed, only that it is set.
public enum SettingMask {
    /// The mask that stands for a hidden secret.
    public static let mask = "********"

    /// Settings whose whole value is a secret. (Today's secrets live in files named by
    /// settings, `gateway.credentials_file`; a setting holding one itself belongs here.)
    public static let secretKeys: Set<String> = []

    /// `value` as it may be shown: a secret key's value masked; a URL's user information
    /// (`https://user:password@host`) and query masked.
    public static func shown(key: String, value: String) -> (text: String, masked: Bool) {
        if secretKeys.contains(key), !value.isEmpty { return (mask, true) }
        guard let scheme = value.firstRange(of: "://") else { return (value, false) }
        var rest = String(value[scheme.upperBound...])
        var masked = false
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            rest = mask + String(rest[at...])
            masked = true
        }
        if let query = rest.firstIndex(of: "?") {
            let end = rest[query...].firstIndex(of: "#") ?? rest.endIndex
            let before = String(rest[...query]), after = String(rest[end...])
            rest = before + mask + after
            masked = true
        }
        return (String(value[..<scheme.upperBound]) + rest, masked)
    }
}
