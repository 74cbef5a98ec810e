/// A note (R17–R19): text in a user-made category, optionally with an audio recording kept as
/// a file beside the store.
public struct Note: Hashable, Sendable {
    /// Stable id (the store's row id).
    public var id: Int64
    /// User-made category (`cardiology`); `general` when none is given.
    public var category: String
    public var text: String
    public var created: Timestamp
    /// The audio file's name under the state directory's `notes/` folder, if any.
    public var audioFile: String?

    public init(id: Int64 = 0, category: String, text: String, created: Timestamp, audioFile: String? = nil) {
        self.id = id
        self.category = category
        self.text = text
        self.created = created
        self.audioFile = audioFile
    }

    /// The category when none is given.
    public static let defaultCategory = "general"

    /// Audio file extensions accepted (what phones and browsers record).
    public static let audioExtensions: Set<String> = ["m4a", "mp3", "ogg", "oga", "opus", "wav", "webm", "aac", "flac"]
}
