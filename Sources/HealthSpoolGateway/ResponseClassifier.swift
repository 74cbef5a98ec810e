import HealthSpoolCore

/// What the gateway said about one record.
public enum RecordVerdict: Equatable, Sendable {
    case accepted
    /// Try again later (50003, 5xx, throttled).
    case retry(String)
    /// The record itself is bad: park it.
    case rejected(String)
    /// Credentials refused.
    case unauthorized(String)
}

/// What the gateway said about a whole request.
public enum BatchVerdict: Equatable, Sendable {
    /// One verdict per record, in order.
    case perRecord([RecordVerdict])
    /// The whole batch may succeed later.
    case retry(GatewayError)
    /// The gateway rejected the request as bad: narrow it down to the offending records.
    case rejected(GatewayError)
    /// Credentials refused, or the gateway is misconfigured (unknown topic, wrong URL): stop
    /// until the configuration changes.
    case stop(GatewayError)
}

/// Reads gateway answers in each format: HTTP status, Confluent error codes, per-record reports.
public enum ResponseClassifier {
    /// Classifies `response` to a request that carried `count` records in `format`.
    public static func classify(_ response: HTTPResponse, format: GatewayFormat, count: Int) -> BatchVerdict {
        let status = response.status
        let retryAfter = response.headers["retry-after"].flatMap(parseRetryAfter)
        let json = try? JSONParser.parse(response.body)
        let message = json?["message"]?.stringValue ?? shortText(response)
        let code = json?["error_code"]?.intValue

        if (200..<300).contains(status) {
            switch format {
            case .json:
                return .perRecord(Array(repeating: .accepted, count: count))
            case .confluentV2:
                guard let offsets = json?["offsets"]?.arrayValue else {
                    return .perRecord(Array(repeating: .accepted, count: count))
                }
                guard offsets.count == count else {
                    return .retry(.badResponse("expected \(count) offsets, got \(offsets.count)"))
                }
                return .perRecord(offsets.map { v2Record($0) })
            case .confluentV3:
                let reports = parseConcatenated(response.body)
                guard !reports.isEmpty else { return .perRecord(Array(repeating: .accepted, count: count)) }
                guard reports.count == count else {
                    return .retry(.badResponse("expected \(count) delivery reports, got \(reports.count)"))
                }
                return .perRecord(reports.map { v3Record($0) })
            }
        }
        let error = GatewayError.http(status: status, message: message, retryAfterMillis: retryAfter)
        if status == 401 || status == 403 || code == 40101 || code == 40301 {
            return .stop(.unauthorized(status: status, message: message))
        }
        if let code, (42201...42299).contains(code) { return .rejected(error) }
        if code == 40401 || code == 40402 || code == 40403 { return .stop(error) }
        switch status {
        case 400, 413, 422: return .rejected(error)
        case 408, 425, 429: return .retry(error)
        case 500...599: return .retry(error)
        default: return .stop(error)
        }
    }

    static func v2Record(_ v: JSONValue) -> RecordVerdict {
        guard let code = v["error_code"]?.intValue else { return .accepted }
        let msg = v["error"]?.stringValue ?? "error \(code)"
        switch code {
        case 40101, 40301: return .unauthorized("\(code) \(msg)")
        case 50003, 50301, 50302, 42901: return .retry("\(code) \(msg)")
        case 1, 2: return .retry("\(code) \(msg)")  // Kafka retriable error codes pre-mapping
        default: return .rejected("\(code) \(msg)")
        }
    }

    static func v3Record(_ v: JSONValue) -> RecordVerdict {
        let code = v["error_code"]?.intValue ?? 200
        if code == 200 || code == 0 { return .accepted }
        let msg = v["message"]?.stringValue ?? "error \(code)"
        switch code {
        case 401, 403, 40101, 40301: return .unauthorized("\(code) \(msg)")
        case 408, 429, 500...599, 42901, 50003, 50301, 50302: return .retry("\(code) \(msg)")
        default: return .rejected("\(code) \(msg)")
        }
    }

    /// Splits concatenated (or newline-separated) JSON objects.
    static func parseConcatenated(_ body: [UInt8]) -> [JSONValue] {
        var out: [JSONValue] = []
        var depth = 0, start = -1, inString = false, escaped = false
        for (i, c) in body.enumerated() {
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            switch c {
            case 0x22: inString = true
            case 0x7B: if depth == 0 { start = i }; depth += 1
            case 0x7D:
                depth -= 1
                if depth == 0, start >= 0, let v = try? JSONParser.parse(Array(body[start...i])) { out.append(v) }
            default: break
            }
        }
        return out
    }

    /// `Retry-After` as seconds (an HTTP date is treated as 60 s).
    static func parseRetryAfter(_ text: String) -> Int64? {
        if let s = Int64(text.trimmingSpaces), s >= 0 { return s * 1000 }
        return text.isEmpty ? nil : 60_000
    }

    static func shortText(_ r: HTTPResponse) -> String {
        let t = r.bodyText.trimmingSpaces
        if t.hasPrefix("<") { return "" }
        return String(t.prefix(200))
    }
}
