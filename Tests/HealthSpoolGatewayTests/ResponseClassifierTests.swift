@testable import HealthSpoolCore
@testable import HealthSpoolGateway
import Testing

/// Canned answers, shaped like what confluentinc/kafka-rest and Redpanda's pandaproxy send.
@Suite struct ResponseClassifierTests {
    func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Array(body.utf8), newConnections: 0)
    }

    @Test func v2AllRecordsAccepted() {
        let r = response(200, #"{"key_schema_id":null,"value_schema_id":null,"offsets":[{"partition":0,"offset":5,"error_code":null,"error":null},{"partition":2,"offset":9,"error_code":null,"error":null}]}"#)
        #expect(ResponseClassifier.classify(r, format: .confluentV2, count: 2) == .perRecord([.accepted, .accepted]))
    }

    @Test func v2EveryOffsetIsCheckedInA200() {
        let r = response(200, #"{"offsets":[{"partition":0,"offset":1,"error_code":null,"error":null},{"partition":null,"offset":null,"error_code":50003,"error":"Retriable Kafka error: NOT_ENOUGH_REPLICAS"},{"partition":null,"offset":null,"error_code":50002,"error":"Kafka error: RecordTooLargeException"},{"partition":null,"offset":null,"error_code":40101,"error":"Authentication failed"},{"partition":null,"offset":null,"error_code":40301,"error":"Not authorized to access topics"}]}"#)
        guard case let .perRecord(v) = ResponseClassifier.classify(r, format: .confluentV2, count: 5) else {
            Issue.record("expected per-record verdicts"); return
        }
        #expect(v[0] == .accepted)
        #expect(v[1] == .retry("50003 Retriable Kafka error: NOT_ENOUGH_REPLICAS"))
        #expect(v[2] == .rejected("50002 Kafka error: RecordTooLargeException"))
        #expect(v[3] == .unauthorized("40101 Authentication failed"))
        #expect(v[4] == .unauthorized("40301 Not authorized to access topics"))
    }

    @Test(arguments: [(3, "retry"), (6, "retry"), (7, "retry"), (19, "retry"), (10, "rejected"), (87, "rejected"),
                      (29, "unauthorized"), (17, "misconfigured")])
    func redpandaReportsKafkaProtocolCodes(code: Int, expected: String) {
        let r = response(200, #"{"offsets":[{"partition":0,"error_code":\#(code),"offset":-1}]}"#)
        guard case let .perRecord(v) = ResponseClassifier.classify(r, format: .confluentV2, count: 1) else {
            Issue.record("expected per-record verdicts"); return
        }
        let kind = switch v[0] {
        case .accepted: "accepted"
        case .retry: "retry"
        case .rejected: "rejected"
        case .unauthorized: "unauthorized"
        case .misconfigured: "misconfigured"
        }
        #expect(kind == expected)
    }

    @Test func v2A200WithoutOffsetsIsNotSuccess() {
        // A captive portal or the wrong format must never mark samples synced.
        let r = response(200, "<html><body>Welcome</body></html>")
        guard case .retry = ResponseClassifier.classify(r, format: .confluentV2, count: 3) else {
            Issue.record("expected retry"); return
        }
        guard case .retry = ResponseClassifier.classify(response(200, #"{"offsets":[{"offset":1}]}"#), format: .confluentV2, count: 2) else {
            Issue.record("a short offsets list must not be success"); return
        }
    }

    @Test func v3ConcatenatedReports() {
        let body = #"{"error_code":200,"cluster_id":"c1","topic_name":"t","partition_id":1,"offset":4,"timestamp":"2026-01-01T00:00:00.000Z","key":{"type":"JSON","size":7},"value":{"type":"JSON","size":300}}"#
            + #"{"error_code":429,"message":"Rate limit exceeded"}"# + "\n"
            + #"{"error_code":400,"message":"Bad Request: Unrecognized field \"x\" {}"}"#
            + #"{"error_code":50003,"message":"Retriable Kafka error"}"#
            + #"{"error_code":404,"message":"This server does not host this topic-partition."}"#
        let v = ResponseClassifier.classify(response(200, body), format: .confluentV3, count: 5)
        #expect(v == .perRecord([.accepted, .retry("429 Rate limit exceeded"), .rejected(#"400 Bad Request: Unrecognized field "x" {}"#),
                                 .retry("50003 Retriable Kafka error"), .misconfigured("404 This server does not host this topic-partition.")]))
    }

    @Test func v3StreamThatEndedEarlyLeavesTheRestQueued() {
        let body = #"{"error_code":200,"offset":1}{"error_code":400,"message":"Error processing JSON"}"#
        guard case let .perRecord(v) = ResponseClassifier.classify(response(200, body), format: .confluentV3, count: 4) else {
            Issue.record("expected per-record verdicts"); return
        }
        #expect(v.count == 4)
        #expect(v[0] == .accepted)
        #expect(v[1] == .rejected("400 Error processing JSON"))
        if case .retry = v[2] {} else { Issue.record("unreported record must be retried") }
        if case .retry = v[3] {} else { Issue.record("unreported record must be retried") }
    }

    @Test(arguments: [42201, 42202, 42203, 42204, 42205, 42206, 42207, 42208])
    func unprocessablePayloadIsNarrowedDown(code: Int) {
        let v = ResponseClassifier.classify(response(422, #"{"error_code":\#(code),"message":"bad"}"#), format: .confluentV2, count: 10)
        guard case let .rejected(e) = v else { Issue.record("expected rejected, got \(v)"); return }
        #expect(e.description.contains("\(code)"))
    }

    @Test func requestLevelAnswers() {
        func kind(_ r: HTTPResponse) -> String {
            switch ResponseClassifier.classify(r, format: .confluentV2, count: 2) {
            case .perRecord: "perRecord"
            case .retry: "retry"
            case .rejected: "rejected"
            case .stop: "stop"
            }
        }
        #expect(kind(response(401, #"{"error_code":40101,"message":"Authentication failed"}"#)) == "stop")
        #expect(kind(response(403, "")) == "stop")
        #expect(kind(response(404, #"{"error_code":40401,"message":"Topic not found."}"#)) == "stop")
        #expect(kind(response(404, #"{"error_code":40403,"message":"This server does not host this topic-partition."}"#)) == "stop")
        #expect(kind(response(413, "<html>Request Entity Too Large</html>")) == "rejected")
        #expect(kind(response(400, #"{"error_code":400,"message":"Unexpected character"}"#)) == "rejected")
        #expect(kind(response(429, "<html><body>Too Many Requests</body></html>", headers: ["retry-after": "7"])) == "retry")
        #expect(kind(response(429, #"{"error_code":42901,"message":"Request rate limit exceeded"}"#)) == "retry")
        #expect(kind(response(500, #"{"error_code":50003,"message":"Retriable Kafka error"}"#)) == "retry")
        #expect(kind(response(500, #"{"error_code":50002,"message":"Kafka error: RecordTooLargeException"}"#)) == "rejected")
        #expect(kind(response(503, #"{"error_code":50302,"message":"Broker not available"}"#)) == "retry")
        #expect(kind(response(502, "<html>Bad Gateway</html>")) == "retry")
        #expect(kind(response(408, #"{"error_code":40801,"message":"Schema registry timeout"}"#)) == "retry")
    }

    @Test func retryAfterInSecondsAndAsAnHTTPDate() {
        #expect(ResponseClassifier.parseRetryAfter("30") == 30_000)
        #expect(ResponseClassifier.parseRetryAfter(" 0 ") == 0)
        let now = Timestamp(millis: HTTPDate.parse("Wed, 21 Oct 2015 07:28:00 GMT")!)
        #expect(now.millis == 1_445_412_480_000)
        #expect(ResponseClassifier.parseRetryAfter("Wed, 21 Oct 2015 07:28:45 GMT", now: now) == 45_000)
        #expect(ResponseClassifier.parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == 0)
        #expect(ResponseClassifier.parseRetryAfter("soon", now: now) == 60_000)
    }

    /// Fuzz finding (gateway target, the clean-clone run of the fourteenth session): an HTTP
    /// date whose year has 13 digits overflowed the conversion to milliseconds and crashed the
    /// daemon. It is not an IMF-fixdate (the year has four digits): read as a word.
    @Test func anHTTPDateWithAHugeYearIsNotADate() {
        #expect(HTTPDate.parse("Wed, 21 Oct 2066666666626 07:28:00 GMT") == nil)
        #expect(HTTPDate.parse("Wed, 21 Oct 99999 07:28:00 GMT") == nil)
        #expect(HTTPDate.parse("Wed, 21 Oct 9999 07:28:00 GMT") != nil)
        #expect(ResponseClassifier.parseRetryAfter("Wed, 21 Oct 2066666666626 07:28:00 GMT", now: Timestamp(millis: 0)) == 60_000)
    }

    /// Fuzz finding (gateway target): a Retry-After of 19 digits overflowed the conversion to
    /// milliseconds and crashed the daemon. Minimised input: `Retry-After: 8888888888888888888`.
    @Test func aHugeRetryAfterIsCappedAtAYear() {
        let year: Int64 = 365 * 86_400_000
        #expect(ResponseClassifier.parseRetryAfter("8888888888888888888") == year)
        #expect(ResponseClassifier.parseRetryAfter("9223372036854775807") == year)
        #expect(ResponseClassifier.parseRetryAfter("31536000") == year)
        var r = response(429, "")
        r.headers["retry-after"] = "8888888888888888888"
        guard case let .retry(.http(_, _, retryAfter)) = ResponseClassifier.classify(r, format: .json, count: 1) else {
            Issue.record("expected retry"); return
        }
        #expect(retryAfter == year)
    }

    @Test func htmlBodiesDoNotBecomeMessages() {
        guard case let .retry(e) = ResponseClassifier.classify(response(429, "<html><h1>429</h1></html>"), format: .json, count: 1) else {
            Issue.record("expected retry"); return
        }
        #expect(e.description == "gateway answered HTTP 429")
    }

    @Test func transportErrorsSayWhatToDo() {
        #expect(GatewayError.transport(code: 90, message: "SSL: public key does not match pinned public key", url: "https://g").description.contains("gateway.pin"))
        #expect(!GatewayError.transport(code: 90, message: "", url: "").isRetryable)
        #expect(GatewayError.transport(code: 28, message: "", url: "https://g").isRetryable)
        #expect(GatewayError.transport(code: 56, message: "", url: "https://g").isRetryable)
        #expect(GatewayError.transport(code: 60, message: "", url: "https://g").description.contains("--ca-file"))
    }
}

/// Secrets stay out of URLs, logs and dumps.
@Suite struct GatewaySecretTests {
    @Test func userInfoInTheURLIsRefusedWithoutEchoingIt() {
        do {
            try validateGatewayURL("https://ann:pa55word@gw.example:8443/topics")
            Issue.record("expected a refusal")
        } catch {
            #expect(!error.description.contains("pa55word"))
            #expect(error.description.contains("--credentials-file"))
        }
    }

    @Test func anEndpointNeverPrintsItsSecret() {
        let e = GatewayEndpoint(url: "https://gw.example", format: .confluentV2, auth: .bearer, secret: "tok-SECRET-1")
        var dumped = ""
        dump(e, to: &dumped)
        for text in ["\(e)", String(describing: e), String(reflecting: e), dumped] {
            #expect(!text.contains("tok-SECRET-1"))
        }
        #expect((try? e.headers())?.contains("Authorization: Bearer tok-SECRET-1") == true)
    }
}
