/// The Change link and the Delete button of one entry (`entry-actions.mustache`), each named
/// for a screen reader by `subject` ("Change: the note of 2026-11-26 09:12").
struct EntryActions: Sendable {
    /// The edit page's address (nil: no Change).
    let edit: String?
    /// Where Delete posts, and its fields.
    let delete: String
    let fields: [Hidden]
    let subject: String
    /// Where a delete lands.
    let back: String
}
