/// The import page (`/import`, `import.mustache`): drop a health export on it, or choose it with
/// the file input (keyboard), and watch it being read. days.js uploads it with the CSRF token
/// and follows its status. Made from two settings (`web.upload_max_mb`, the spool's path): no
/// store is read.
struct ImportPage: Sendable {
    let maxBytes: Int64
    let maxMB: Int
    /// The limit as a person says it: "2 GB", "500 MB" (never more than the limit).
    let largest: String
    /// Where an export can be saved instead, without a script.
    let spoolPath: String

    static func render(csrf: FormKeys, maxMB: Int, spoolPath: String) -> String {
        let page = ImportPage(maxBytes: Int64(maxMB) << 20, maxMB: maxMB, largest: maxMB >= 1024 ? "\(maxMB / 1024) GB" : "\(maxMB) MB",
                              spoolPath: spoolPath)
        return WebTemplates.render(PageFrame(title: "Import", path: "/import", keys: csrf, extraStyles: [WebAssets.path("days.css")],
                                             extraScripts: [WebAssets.path("days.js")], page: page), .`import`)
    }
}
