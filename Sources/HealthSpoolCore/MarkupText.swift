/// Text made safe inside XML or XHTML element content: `&`, `<` and `>` escaped (quotes stay:
/// not for attribute values). The FHIR narrative and the desktop notification's body markup
/// both use it.
public enum MarkupText {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}
