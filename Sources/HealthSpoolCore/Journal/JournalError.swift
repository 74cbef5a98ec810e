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
    /// A name (`what`: symptom, category, factor) that is empty once trimmed.
    case emptyName(what: String)
    /// A name longer than 100 characters.
    case nameTooLong(what: String)
    /// A name holding a control character (`name` as given, escaped when shown).
    case controlCharacter(what: String, name: String)
    /// An id prefix too short or not hexadecimal; `list` is the command that shows the ids.
    case notAnID(prefix: String, list: String)
    /// No `kind` entry's id starts with `prefix`.
    case noEntry(kind: String, prefix: String, list: String)
    /// Several entries' ids start with `prefix`.
    case ambiguousID(prefix: String)
    /// The entry `id` was deleted.
    case deleted(id: String)
    /// An undo that cannot put the `kind` entry `id` back: it is gone.
    case cannotPutBack(kind: String, id: String)
    /// A form's date or time (as typed) that is not a date or a time of day.
    case unreadableDateTime(date: String, time: String)

    public var description: String {
        switch self {
        case .invalid(let field, let value, let expected): "\(field): '\(value)' is not valid; expected \(expected)"
        case .outOfRange(let m, let value, let range): "\(m) \(value) is outside the accepted range \(range); check the reading"
        case .notFound(let kind, let key): "no \(kind) '\(key)'; list them with: healthspool \(kind == "dose" ? "med doses" : kind == "medication" ? "med list" : kind == "reminder" ? "remind list" : kind + " list")"
        case .duplicate(let kind, let key): "a \(kind) named '\(key)' exists already"
        case .emptyName(let what): "the \(what) name is empty"
        case .nameTooLong(let what): "the \(what) name is longer than 100 characters"
        case .controlCharacter(let what, let name): "the \(what) name '\(EscapedText.escape(name))' holds a control character"
        case .notAnID(let prefix, let list):
            "'\(prefix)' is not an entry id: give at least the first 4 characters of the ID that 'healthspool \(list) list' shows"
        case .noEntry(let kind, let prefix, let list): "no \(kind) entry has an id starting with '\(prefix)'; see 'healthspool \(list) list'"
        case .ambiguousID(let prefix): "several entries have ids starting with '\(prefix)'; give more of the id"
        case .deleted(let id): "the entry \(id) was deleted"
        case .cannotPutBack(let kind, let id): "no \(kind) entry has the id \(id); it cannot be put back"
        case .unreadableDateTime: "Type the date as year-month-day (2026-11-26) and the time as hours:minutes (09:15)."
        }
    }
}
