import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// The one-time login link `healthspool ui` hands the browser: an expiry, a random nonce and an
/// HMAC-SHA256 of both under the user's web secret (a 0600 file only the user can read). The web
/// interface accepts a link once, before it expires; nothing needs to pass between the two
/// processes but the secret file they both read.
public struct LoginLink: Sendable, Equatable {
    /// Until when (Unix milliseconds) the link is accepted.
    public var expiresMillis: Int64
    /// 16 random bytes, hex: what makes the link single-use.
    public var nonce: String
    /// HMAC-SHA256(secret, "login|expiry|nonce"), hex.
    public var mac: String

    /// How long a fresh link stays valid.
    public static let lifetimeMillis: Int64 = 120_000

    /// A fresh link for `secret`, valid from `now` for `lifetimeMillis`.
    public static func make(secret: [UInt8], now: Timestamp) -> LoginLink {
        let nonce = Hex.encode(RandomBytes.make(16))
        let expires = now.millis + lifetimeMillis
        return LoginLink(expiresMillis: expires, nonce: nonce, mac: Hex.encode(HMAC.sha256(key: secret, message: message(expires, nonce))))
    }

    /// The token as it appears in the link's query (`?token=`).
    public var token: String { "\(expiresMillis).\(nonce).\(mac)" }

    /// The link for the web interface at `address` (the user's loopback address) and `port`.
    public func url(address: String, port: Int) -> String { "http://\(address):\(port)/login?token=\(token)" }

    /// Parses a token; nil when it is not three dot-separated parts of the right shape.
    public init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let e = Int64(parts[0]), parts[1].count == 32, parts[2].count == 64,
              Hex.decode(String(parts[1])) != nil, Hex.decode(String(parts[2])) != nil else { return nil }
        self.init(expiresMillis: e, nonce: String(parts[1]), mac: String(parts[2]))
    }

    init(expiresMillis: Int64, nonce: String, mac: String) {
        self.expiresMillis = expiresMillis
        self.nonce = nonce
        self.mac = mac
    }

    /// Whether the MAC is right for `secret` and the link has not expired at `now` (single use
    /// is the server's to enforce: `WebSessions.redeem`).
    public func isValid(secret: [UInt8], now: Timestamp) -> Bool {
        guard now.millis < expiresMillis, expiresMillis - now.millis <= Self.lifetimeMillis,
              let given = Hex.decode(mac) else { return false }
        return HMAC.constantTimeEqual(given, HMAC.sha256(key: secret, message: Self.message(expiresMillis, nonce)))
    }

    static func message(_ expires: Int64, _ nonce: String) -> [UInt8] { Array("login|\(expires)|\(nonce)".utf8) }
}

/// HMAC-SHA256 (RFC 2104) over the core's SHA-256.
enum HMAC {
    static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var k = key.count > 64 ? SHA256.hash(key) : key
        k += [UInt8](repeating: 0, count: 64 - k.count)
        let inner = SHA256.hash(k.map { $0 ^ 0x36 } + message)
        return SHA256.hash(k.map { $0 ^ 0x5c } + inner)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}

/// Lower-case hex.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let u = Array(text.utf8)
        guard u.count % 2 == 0 else { return nil }
        func v(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        var i = 0
        while i < u.count {
            guard let hi = v(u[i]), let lo = v(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

/// Random bytes from the kernel (getrandom through the system generator).
enum RandomBytes {
    static func make(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) }
    }

    /// A random token, hex.
    static func token(_ count: Int = 32) -> String { Hex.encode(make(count)) }
}
