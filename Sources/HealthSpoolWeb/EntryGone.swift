/// An edit page's answer when its entry is not there (`entry-gone.mustache`).
struct EntryGone: Sendable {
    /// Why it cannot be changed.
    let gone: String
    let back: String
    let backLabel: String

    static func render(title: String, path: String, keys: FormKeys, gone: String, back: String, backLabel: String) -> String {
        WebTemplates.render(PageFrame(title: title, path: path, keys: keys, page: EntryGone(gone: gone, back: back, backLabel: backLabel)), .entryGone)
    }
}
