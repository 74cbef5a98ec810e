/// The import page: drop a health export on it, or choose it with the file input (keyboard),
/// and watch it being read. days.js uploads it with the CSRF token and follows its status.
enum ImportPage {
    static func render(csrf: FormKeys, maxMB: Int, spoolPath: String) -> String {
        var p = Page(title: "Import", path: "/import", csrf: csrf)
        p.raw("<section class=\"card\" aria-labelledby=\"drop-h\"><h2 id=\"drop-h\">Import a health export</h2>")
        p.raw("<div class=\"drop\" id=\"drop\" data-max-bytes=\"\(Int64(maxMB) << 20)\">")
        p.raw("<p>Drop an export here: the Apple Health export (export.zip or export.xml), or Health Auto Export JSON or CSV.</p>")
        p.raw("<div class=\"field\"><label for=\"import-file\">Or choose a file</label>")
        p.raw("<p class=\"hint\" id=\"import-hint\">At most \(maxMB) MiB. It is read at once; nothing is sent before it is read.</p>")
        p.raw("<input type=\"file\" id=\"import-file\" name=\"file\" aria-describedby=\"import-hint\" accept=\".zip,.xml,.json,.csv\"></div></div>")
        p.raw("<noscript><p>Without JavaScript, save the file to the folder "); p.text(spoolPath); p.raw(" instead: it is read the same way.</p></noscript>")
        p.raw("<p><label for=\"import-progress\">Progress</label><progress id=\"import-progress\" max=\"100\" value=\"0\">0 %</progress></p>")
        p.raw("<p id=\"import-text\" role=\"status\" aria-live=\"polite\">No file chosen.</p></section>")
        return p.document(styles: [WebAssets.path("days.css")], scripts: [WebAssets.path("days.js")])
    }
}
