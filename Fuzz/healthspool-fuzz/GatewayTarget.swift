import HealthSpoolCore
@testable import HealthSpoolGateway

/// The gateway response classifier, on bodies and Retry-After headers from a hostile proxy.
/// Input: one byte picks the status, one the format and record count; then the Retry-After value
/// up to a NUL, then the body. Properties: a per-record verdict has exactly one verdict per record;
/// Retry-After is never negative.
enum GatewayTarget {
    static let statuses = [200, 201, 204, 207, 301, 400, 401, 403, 404, 408, 409, 413, 415, 422, 425, 429, 500, 502, 503, 504]

    static let target = FuzzTarget(name: "gateway", summary: "gateway response classifier (hostile proxy bodies)") { data in
        guard data.count >= 2 else { return }
        let status = data[0] < 240 ? statuses[Int(data[0]) % statuses.count] : 100 + Int(data[0] - 240) * 37
        let format = GatewayFormat.allCases[Int(data[1]) % GatewayFormat.allCases.count]
        let count = 1 + Int(data[1] >> 2)
        let rest = data[2...]
        let nul = rest.firstIndex(of: 0) ?? rest.endIndex
        let retryAfter = String(decoding: rest[rest.startIndex..<nul], as: UTF8.self)
        let body = nul < rest.endIndex ? Array(rest[(nul + 1)...]) : []
        var headers = ["content-type": "application/json"]
        if !retryAfter.isEmpty { headers["retry-after"] = retryAfter }
        let response = HTTPResponse(status: status, headers: headers, body: body, newConnections: 0)
        if case let .perRecord(verdicts) = ResponseClassifier.classify(response, format: format, count: count), verdicts.count != count {
            propertyFailed("gateway: \(verdicts.count) verdicts for \(count) records (\(format.rawValue), HTTP \(status))")
        }
        for now in [nil, Timestamp(millis: 1_750_000_000_000)] {
            if let ms = ResponseClassifier.parseRetryAfter(retryAfter, now: now), ms < 0 {
                propertyFailed("gateway: Retry-After '\(retryAfter)' gives \(ms) ms")
            }
        }
    }
}
