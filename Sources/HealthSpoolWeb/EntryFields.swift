/// The fields of a form that names one entry (a Delete, Remove or Done button): its `id` and
/// where it lands (`back`), decoded by Hummingbird's `URLEncodedFormDecoder` (`Form.decode`).
struct EntryFields: Decodable, Sendable {
    var id: String?
    var back: String?
}
