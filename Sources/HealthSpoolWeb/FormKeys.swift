/// What a page's forms carry: the session's CSRF token, and a fresh one-time token per form
/// (`FormTokens`).
struct FormKeys: Sendable {
    /// The form field that carries the one-time token.
    static let field = "once"

    var csrf: String
    /// Issues a one-time token for one form.
    var issue: @Sendable () -> String

    init(csrf: String, issue: @escaping @Sendable () -> String) {
        self.csrf = csrf
        self.issue = issue
    }
}
