/// A labelled text field (`field.mustache`): with `error`, the error sits above the input, which
/// is marked invalid and described by it; the first field with an error on a page takes the focus.
struct Field: Sendable {
    /// Whether a field of the page already took the focus.
    struct Focus {
        var taken = false
    }

    let id: String
    let label: String
    let name: String
    let value: String
    let required: Bool
    /// The id of a `<datalist>` of suggestions.
    let list: String?
    /// `autocomplete="off"`: the browser offers no earlier entries (numbers, names).
    let autocompleteOff: Bool
    let inputmode: String?
    let short: Bool
    let hint: String?
    let error: String?
    let autofocus: Bool
    /// The ids of the error and the hint, in that order.
    let describedBy: String?

    init(label: String, name: String, value: String, required: Bool = true, list: String? = nil, autocompleteOff: Bool = true, inputmode: String? = nil,
         short: Bool = false, hint: String? = nil, error: String? = nil, focus: inout Focus) {
        id = "f-" + name
        self.label = label
        self.name = name
        self.value = value
        self.required = required
        self.list = list
        self.autocompleteOff = autocompleteOff
        self.inputmode = inputmode
        self.short = short
        self.hint = hint
        self.error = error
        autofocus = error != nil && !focus.taken
        if autofocus { focus.taken = true }
        let described = [error.map { _ in "f-\(name)-error" }, hint.map { _ in "f-\(name)-hint" }].compactMap { $0 }
        describedBy = described.isEmpty ? nil : described.joined(separator: " ")
    }
}
