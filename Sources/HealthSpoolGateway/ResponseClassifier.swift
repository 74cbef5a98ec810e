import HealthSpoolCore

/// What the gateway said about one record.
public enum RecordVerdict: Equatable, Sendable {
    case accepted
    /// Try again later (50003, 5xx, throttled, a record the proxy never got to).
    case retry(String)
    /// The record itself is bad: park it.
    case rejected(String)
    /// Credentials refused.
    case unauthorized(String)
    /// The gateway is misconfigured for us (unknown topic or cluster): stop until the
    /// configuration changes.
    case misconfigured(String)
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
///
/// What the proxies really send (checked against confluentinc/kafka-rest and Redpanda's
/// pandaproxy):
/// - v2 answers 200 with `{"offsets":[{"partition":0,"offset":5,"error_code":null,"error":null}, …]}`,
///   one element per record in order; a failed record carries a REST error code (Confluent:
///   40101 authentication, 40301 authorization, 50002 non-retriable Kafka error, 50003
///   retriable) or, from Redpanda, the Kafka protocol error code (3, 6, 7, 10, 29, …).
/// - v3 answers 200 and streams one report per record, concatenated:
///   `{"error_code":200,"cluster_id":…,"topic_name":…,"partition_id":0,"offset":5,…}` or
///   `{"error_code":429,"message":…}`; when a record cannot be parsed the stream ends with a 400
///   report, and the records after it get no report at all.
/// - Request-level errors are `{"error_code":…,"message":…}` (40401 unknown topic, 40403
///   unknown topic or partition, 42201–42208 unprocessable payload, 42901 throttled, 50302
///   broker unavailable); a 429 from a load balancer may carry an HTML body.
public enum ResponseClassifier {
    /// Classifies `response` to a request that carried `count` records in `format`.
    public static func classify(_ response: HTTPResponse, format: GatewayFormat, count: Int) -> BatchVerdict {
        let status = response.status
        let retryAfter = response.headers["retry-after"].flatMap { parseRetryAfter($0) }
        let json = looksLikeJSON(response) ? try? JSONParser.parse(response.body) : nil
        let code = json?["error_code"]?.intValue
        let text = json?["message"]?.stringValue ?? shortText(response)
        // The REST proxy's error code says more than the status: keep it in the message.
        let message = code.map { $0 == status ? text : "error \($0)\(text.isEmpty ? "" : ", " + text)" } ?? text

        if (200..<300).contains(status) {
            switch format.wire {
            case .json:
                return .perRecord(Array(repeating: .accepted, count: count))
            case .confluentV2:
                guard let offsets = json?["offsets"]?.arrayValue else {
                    return .retry(.badResponse("HTTP \(status) without an offsets[] list; is \(format.rawValue) the right format for this gateway?"))
                }
                guard offsets.count == count else {
                    return .retry(.badResponse("expected \(count) offsets, got \(offsets.count)"))
                }
                return .perRecord(offsets.map { v2Record($0) })
            case .confluentV3:
                let reports = parseConcatenated(response.body)
                guard !reports.isEmpty else {
                    return .retry(.badResponse("HTTP \(status) without delivery reports; is \(format.rawValue) the right format for this gateway?"))
                }
                guard reports.count <= count else {
                    return .retry(.badResponse("expected \(count) delivery reports, got \(reports.count)"))
                }
                // A stream that ended early (a record it could not parse) leaves the rest unsent.
                let missing = Array(repeating: RecordVerdict.retry("no delivery report (the proxy stopped reading the batch)"),
                                    count: count - reports.count)
                return .perRecord(reports.map { v3Record($0) } + missing)
            }
        }
        let error = GatewayError.http(status: status, message: message, retryAfterMillis: retryAfter)
        if status == 401 || status == 403 || code == 40101 || code == 40301 {
            return .stop(.unauthorized(status: status, message: message))
        }
        if let code {
            if (42201...42299).contains(code) || code == 40002 || code == 50002 { return .rejected(error) }
            if code == 40401 || code == 40402 || code == 40403 || code == 40404 { return .stop(error) }
            if code == 50003 || code == 50301 || code == 50302 || code == 42901 || code == 40801 { return .retry(error) }
        }
        switch status {
        case 400, 413, 422: return .rejected(error)
        case 408, 425, 429: return .retry(error)
        case 500...599: return .retry(error)
        default: return .stop(error)
        }
    }

    /// One element of a v2 `offsets[]`.
    static func v2Record(_ v: JSONValue) -> RecordVerdict {
        guard let code = v["error_code"]?.intValue, code != 0 else { return .accepted }
        let msg = "\(code) " + (v["error"]?.stringValue ?? v["message"]?.stringValue ?? KafkaErrorCode.name(code) ?? "error")
        return restOrKafkaCode(code, message: msg)
    }

    /// One v3 delivery report.
    static func v3Record(_ v: JSONValue) -> RecordVerdict {
        let code = v["error_code"]?.intValue ?? 200
        if code == 200 || code == 0 { return .accepted }
        let msg = "\(code) " + (v["message"]?.stringValue ?? "error")
        return restOrKafkaCode(code, message: msg)
    }

    /// A per-record code: an HTTP status (v3), a REST proxy code (5 digits), or a Kafka
    /// protocol error code (Redpanda).
    static func restOrKafkaCode(_ code: Int, message msg: String) -> RecordVerdict {
        switch code {
        case 401, 403, 40101, 40301: return .unauthorized(msg)
        case 404, 40401, 40402, 40403, 40404: return .misconfigured(msg)
        case 408, 425, 429, 40801, 42901, 50003, 50301, 50302: return .retry(msg)
        case 500...599: return .retry(msg)
        case 400, 413, 422, 40002, 50002, 42201...42299: return .rejected(msg)
        case 1..<1000: return KafkaErrorCode.verdict(code, message: msg)
        case 400...499, 40000...49999: return .rejected(msg)
        default: return .retry(msg)
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

    /// `Retry-After` in milliseconds: delay-seconds, or an HTTP date (relative to `now`; without
    /// `now`, or when the date cannot be read, 60 s).
    public static func parseRetryAfter(_ text: String, now: Timestamp? = nil) -> Int64? {
        let t = text.trimmingSpaces
        if t.isEmpty { return nil }
        // Seconds past a year are taken as a year: a hostile proxy's 19-digit value overflowed here.
        if let s = Int64(t) { return s >= 0 ? min(s, 365 * 86_400) * 1000 : nil }
        if let now, let at = HTTPDate.parse(t) { return min(max(0, at - now.millis), 365 * 86_400_000) }   // a year at most, as above
        return 60_000
    }

    static func looksLikeJSON(_ r: HTTPResponse) -> Bool {
        guard let first = r.body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return false }
        return first == 0x7B || first == 0x5B
    }

    /// The body as a short message: empty for HTML error pages.
    static func shortText(_ r: HTTPResponse) -> String {
        let t = r.bodyText.trimmingSpaces
        if t.hasPrefix("<") { return "" }
        return String(t.prefix(200))
    }
}

/// Kafka protocol error codes, as Redpanda's HTTP proxy reports them per record.
enum KafkaErrorCode {
    static let names: [Int: String] = [
        1: "OFFSET_OUT_OF_RANGE", 2: "CORRUPT_MESSAGE", 3: "UNKNOWN_TOPIC_OR_PARTITION", 5: "LEADER_NOT_AVAILABLE",
        6: "NOT_LEADER_OR_FOLLOWER", 7: "REQUEST_TIMED_OUT", 8: "BROKER_NOT_AVAILABLE", 10: "MESSAGE_TOO_LARGE",
        13: "NETWORK_EXCEPTION", 17: "INVALID_TOPIC_EXCEPTION", 18: "RECORD_LIST_TOO_LARGE", 19: "NOT_ENOUGH_REPLICAS",
        20: "NOT_ENOUGH_REPLICAS_AFTER_APPEND", 21: "INVALID_REQUIRED_ACKS", 29: "TOPIC_AUTHORIZATION_FAILED",
        31: "CLUSTER_AUTHORIZATION_FAILED", 32: "INVALID_TIMESTAMP", 45: "OUT_OF_ORDER_SEQUENCE_NUMBER",
        56: "KAFKA_STORAGE_ERROR", 58: "SASL_AUTHENTICATION_FAILED", 74: "FENCED_LEADER_EPOCH",
        75: "UNKNOWN_LEADER_EPOCH", 87: "INVALID_RECORD", 89: "THROTTLING_QUOTA_EXCEEDED",
    ]

    static func name(_ code: Int) -> String? { names[code] }

    /// Retriable per the Kafka protocol table; authorization stops; the rest reject the record.
    static func verdict(_ code: Int, message: String) -> RecordVerdict {
        switch code {
        case 29, 31, 58: return .unauthorized(message)
        case 2, 3, 5, 6, 7, 8, 13, 19, 20, 45, 56, 74, 75, 89: return .retry(message)
        case 17: return .misconfigured(message)
        case 10, 18, 21, 32, 87: return .rejected(message)
        default: return .retry(message)
        }
    }
}
