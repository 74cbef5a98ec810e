import CCurl
import CZlib
import HealthSpoolCore

/// TLS, timeout and connection settings for the connection to the gateway.
public struct TLSOptions: Sendable, Equatable {
    /// PEM CA bundle to trust instead of the system's.
    public var caFile: String?
    /// `sha256//BASE64` of the server's SubjectPublicKeyInfo (several joined with `;`).
    public var pinnedPublicKey: String?
    public var clientCert: String?
    public var clientKey: String?
    /// The whole request, connect to last byte.
    public var timeoutSeconds: Int
    public var connectTimeoutSeconds: Int
    /// Reuse the connection between requests (false: a new TCP + TLS handshake per request).
    public var keepAlive: Bool

    public init(caFile: String? = nil, pinnedPublicKey: String? = nil, clientCert: String? = nil,
                clientKey: String? = nil, timeoutSeconds: Int = 30, connectTimeoutSeconds: Int = 10, keepAlive: Bool = true) {
        self.caFile = caFile
        self.pinnedPublicKey = pinnedPublicKey
        self.clientCert = clientCert
        self.clientKey = clientKey
        self.timeoutSeconds = timeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.keepAlive = keepAlive
    }
}

/// An HTTP answer.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
    /// New connections this request opened (0 when a kept-alive one was reused).
    public var newConnections: Int
}

/// One libcurl easy handle: one keep-alive HTTPS connection. Not thread-safe; one per sender.
public final class HTTPSClient {
    private let handle: UnsafeMutableRawPointer
    private let options: TLSOptions
    private static let globalInit: Void = { _ = hs_curl_global_init() }()
    /// libcurl's upload buffer: what it hands TLS at a time.
    static let uploadBufferSize = 512 << 10

    /// Creates a client; checks that the files it will need are readable.
    public init(options: TLSOptions) throws(GatewayError) {
        _ = Self.globalInit
        for path in [options.caFile, options.clientCert, options.clientKey].compactMap({ $0 }) {
            guard access(path, R_OK) == 0 else { throw .unreadableFile(path, reason: "it does not exist or is not readable") }
        }
        guard let h = curl_easy_init() else { throw .transport(code: -1, message: "curl_easy_init failed", url: "") }
        handle = h
        self.options = options
    }

    deinit { curl_easy_cleanup(handle) }

    /// Context the C callbacks write into.
    private final class Exchange {
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        let bodyLimit = 8 << 20
    }

    /// POSTs `body` to `url` with `headers` ("Name: value"). Throws for transport failures;
    /// any HTTP status is returned.
    public func post(url: String, body: [UInt8], headers: [String]) throws(GatewayError) -> HTTPResponse {
        // withUnsafeBytes rethrows untyped errors: the typed one goes through a Result.
        try body.withUnsafeBytes { raw in Result { () throws(GatewayError) in try perform(url: url, body: raw, headers: headers) } }.get()
    }

    /// POSTs the bytes `body` points at (read only during the call).
    public func post(url: String, body: UnsafeRawBufferPointer, headers: [String]) throws(GatewayError) -> HTTPResponse {
        try perform(url: url, body: body, headers: headers)
    }

    /// GETs `url` (used by `healthspool gateway test` to look the topic up).
    public func get(url: String, headers: [String]) throws(GatewayError) -> HTTPResponse {
        try perform(url: url, body: nil, headers: headers)
    }

    /// One request on the kept-alive handle: a POST when `body` is given, else a GET.
    private func perform(url: String, body: UnsafeRawBufferPointer?, headers: [String]) throws(GatewayError) -> HTTPResponse {
        try validateGatewayURL(url)
        let exchange = Exchange()
        let ctx = Unmanaged.passUnretained(exchange).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>?
        for h in headers + ["Expect:"] { list = curl_slist_append(list, h) }
        defer { curl_slist_free_all(list) }

        let h = handle
        var setupFailed: CURLcode = CURLE_OK
        func set(_ rc: CURLcode) { if rc != CURLE_OK, setupFailed == CURLE_OK { setupFailed = rc } }
        set(hs_curl_set_str(h, CURLOPT_URL, url))
        set(hs_curl_set_str(h, CURLOPT_PROTOCOLS_STR, "https"))
        set(hs_curl_set_str(h, CURLOPT_REDIR_PROTOCOLS_STR, "https"))
        set(hs_curl_set_long(h, CURLOPT_NOSIGNAL, 1))
        if body != nil { set(hs_curl_set_long(h, CURLOPT_POST, 1)) } else { set(hs_curl_set_long(h, CURLOPT_HTTPGET, 1)) }
        set(hs_curl_set_long(h, CURLOPT_FORBID_REUSE, options.keepAlive ? 0 : 1))
        set(hs_curl_set_long(h, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)))
        set(hs_curl_set_long(h, CURLOPT_SSL_VERIFYPEER, 1))
        set(hs_curl_set_long(h, CURLOPT_SSL_VERIFYHOST, 2))
        set(hs_curl_set_long(h, CURLOPT_TIMEOUT, options.timeoutSeconds))
        set(hs_curl_set_long(h, CURLOPT_CONNECTTIMEOUT, options.connectTimeoutSeconds))
        set(hs_curl_set_long(h, CURLOPT_TCP_KEEPALIVE, 1))
        // A batch body (~225 KB at 500 samples) goes to TLS in one or two writes instead of four
        // (the default buffer is 64 KiB): ~10 % more samples a second in the gateway benchmark.
        set(hs_curl_set_long(h, CURLOPT_UPLOAD_BUFFERSIZE, Self.uploadBufferSize))
        if let ca = options.caFile { set(hs_curl_set_str(h, CURLOPT_CAINFO, ca)) }
        if let pin = options.pinnedPublicKey { set(hs_curl_set_str(h, CURLOPT_PINNEDPUBLICKEY, pin)) }
        if let cert = options.clientCert { set(hs_curl_set_str(h, CURLOPT_SSLCERT, cert)) }
        if let key = options.clientKey { set(hs_curl_set_str(h, CURLOPT_SSLKEY, key)) }
        set(hs_curl_set_slist(h, CURLOPT_HTTPHEADER, list))
        set(hs_curl_set_write(h, { ptr, size, count, ud in
            let ex = Unmanaged<Exchange>.fromOpaque(ud!).takeUnretainedValue()
            let n = size * count
            if ex.body.count < ex.bodyLimit, let ptr {
                ptr.withMemoryRebound(to: UInt8.self, capacity: n) { ex.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            }
            return n
        }, ctx))
        set(hs_curl_set_header_cb(h, { ptr, size, count, ud in
            let ex = Unmanaged<Exchange>.fromOpaque(ud!).takeUnretainedValue()
            let n = size * count
            guard let ptr else { return n }
            let line = ptr.withMemoryRebound(to: UInt8.self, capacity: n) { String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self) }
            if line.hasPrefix("HTTP/") { ex.headers.removeAll() }
            if let colon = line.firstIndex(of: ":") {
                ex.headers[String(line[..<colon]).lowercased()] = String(line[line.index(after: colon)...]).trimmingSpaces
            }
            return n
        }, ctx))
        guard setupFailed == CURLE_OK else {
            throw .transport(code: Int32(setupFailed.rawValue), message: String(cString: curl_easy_strerror(setupFailed)), url: url)
        }
        let rc: CURLcode
        if let body {
            _ = hs_curl_set_off(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = hs_curl_set_ptr(h, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            rc = curl_easy_perform(h)
            _ = hs_curl_set_ptr(h, CURLOPT_POSTFIELDS, nil)
        } else {
            rc = curl_easy_perform(h)
        }
        guard rc == CURLE_OK else {
            throw .transport(code: Int32(rc.rawValue), message: String(cString: curl_easy_strerror(rc)), url: url)
        }
        return HTTPResponse(status: hs_curl_info_long(h, CURLINFO_RESPONSE_CODE), headers: exchange.headers,
                            body: exchange.body, newConnections: hs_curl_info_long(h, CURLINFO_NUM_CONNECTS))
    }
}

/// gzip-compresses a request body with zlib. Level 1 by default: on JSON batches it keeps most of
/// level 6's size reduction at a fraction of its CPU time.
public func gzipCompress(_ input: [UInt8], level: Int32 = 1) -> [UInt8] {
    input.withUnsafeBytes { gzipCompress($0, level: level) }
}

/// gzip-compresses the bytes `input` points at.
public func gzipCompress(_ input: UnsafeRawBufferPointer, level: Int32 = 1) -> [UInt8] {
    var stream = z_stream()
    guard hs_deflate_init_gzip(&stream, level) == Z_OK else { return Array(input) }
    defer { deflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
    let produced: Int = out.withUnsafeMutableBytes { outBuf in
        // zlib only reads its input; its field is not const.
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = outBuf.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(outBuf.count)
        _ = deflate(&stream, Z_FINISH)
        return outBuf.count - Int(stream.avail_out)
    }
    out.removeSubrange(produced...)
    return out
}
