/// A journal entry that cannot be made as given: names the field, what was given and what is
/// allowed, so the user can correct it.
public enum JournalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A field's value is not in the accepted form.
    case invalid(field: String, value: String, expected: String)
    /// A measurement outside the physiological range.
    case outOfRange(measurement: String, value: String, range: String)
    /// No entry with this id or name.
    case notFound(kind: String, key: String)
    /// An entry with this name exists already.
    case duplicate(kind: String, key: String)

    public var description: String {
        switch self {
        case .invalid(let field, let value, let expected): "\(field): '\(value)' is not valid; expected \(expected)"
        case .outOfRange(let m, let value, let range): "\(m) \(value) is outside the accepted range \(range); check the reading"
        case .notFound(let kind, let key): "no \(kind) '\(key)'; list them with: healthspool \(kind == "dose" ? "med doses" : kind == "medication" ? "med list" : kind == "reminder" ? "remind list" : kind + " list")"
        case .duplicate(let kind, let key): "a \(kind) named '\(key)' exists already"
        }
    }
}
