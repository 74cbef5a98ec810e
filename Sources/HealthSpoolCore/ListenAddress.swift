/// An address and port to listen on, as written in a setting: `192.168.1.20:8443` or
/// `[fd00::20]:8443`. Only the form is checked here; the socket layer checks the address.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address without brackets.
    public let host: String
    public let port: Int

    /// Parses `ADDR:PORT` or `[IPV6]:PORT`; nil for anything else (a host name, no port).
    public init?(_ text: String) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(Self.isDigit) && (UInt8($0) != nil) })
            else { return nil }
        }
        guard !portText.isEmpty, portText.allSatisfy(Self.isDigit), let port = Int(portText), (1...65_535).contains(port) else { return nil }
        self.host = String(host)
        self.port = port
    }

    static func isDigit(_ c: Character) -> Bool { c >= "0" && c <= "9" }

    /// Whether the host is an IPv6 address.
    public var isIPv6: Bool { host.contains(":") }

    /// As written: `ADDR:PORT`, the IPv6 address in brackets.
    public var description: String { (isIPv6 ? "[\(host)]" : host) + ":\(port)" }
}
