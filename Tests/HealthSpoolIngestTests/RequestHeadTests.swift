import Testing
@testable import HealthSpoolIngest

@Suite struct RequestHeadTests {
    func parse(_ text: String) throws(RequestHeadError) -> RequestHead { try RequestHead.parse(Array(text.utf8)) }

    @Test func aTypicalPushIsParsedWithLowerCasedNamesAndTrimmedValues() throws {
        let head = try parse("POST /ingest?x=1 HTTP/1.1\r\nHost: 192.168.1.20:8443\r\nAuthorization:  Bearer abc \r\nContent-Length: 42\r\n\r\n")
        #expect(head.method == "POST")
        #expect(head.target == "/ingest?x=1")
        #expect(head.path == "/ingest")
        #expect(head.version == "HTTP/1.1")
        #expect(head.values("authorization") == ["Bearer abc"])
        #expect(try head.contentLength() == 42)
    }

    @Test func theEndOfTheHeadIsFoundAcrossReads() {
        let bytes = Array("POST / HTTP/1.1\r\nA: b\r\n\r\nBODY".utf8)
        #expect(RequestHead.end(in: Array(bytes.prefix(20))) == nil)
        #expect(RequestHead.end(in: bytes, from: 17) == bytes.count - 4)
    }

    @Test(arguments: [
        "POST /ingest HTTP/1.1\nHost: x\r\n\r\n",          // bare LF
        "POST /ingest HTTP/1.1\r\nHost\r\n\r\n",            // no colon
        "POST /ingest HTTP/1.1\r\n folded: x\r\n\r\n",      // obsolete folding
        "POST  /ingest HTTP/1.1\r\n\r\n",                   // two spaces
        "PO ST /ingest HTTP/1.1\r\n\r\n",
        "POST /in gest HTTP/1.1\r\n\r\n",
        "POST /ingest HTTP/1.1\r\nBad Name: x\r\n\r\n",
        "POST /ingest HTTP/1.1\r\nX: a\u{1}b\r\n\r\n",
        "POST /ingest HTTP/1.1\r\nX: a\rb\r\n\r\n",
        "POST /ingest HTTP/1.1\r\n",
    ])
    func malformedHeadsAreRefusedWith400(_ text: String) {
        #expect(throws: RequestHeadError.self) { try parse(text) }
        do { _ = try parse(text) } catch { #expect(error.status == 400) }
    }

    @Test func otherVersionsAre505AndHugeHeads431() {
        do { _ = try parse("POST /ingest HTTP/2.0\r\n\r\n"); Issue.record("accepted") } catch { #expect(error.status == 505) }
        let big = "POST /ingest HTTP/1.1\r\nX: " + String(repeating: "a", count: RequestHead.maxBytes) + "\r\n\r\n"
        do { _ = try parse(big); Issue.record("accepted") } catch { #expect(error == .tooLarge) }
    }

    @Test func tooManyFieldsAreRefused() {
        let fields = (0...RequestHead.maxFields).map { "X-\($0): y\r\n" }.joined()
        #expect(throws: RequestHeadError.self) { try parse("POST /ingest HTTP/1.1\r\n" + fields + "\r\n") }
    }

    @Test(arguments: ["-1", "1e3", "0x10", "", "1 2", "+5", "99999999999999999999"])
    func aContentLengthThatIsNotDigitsIsRefused(_ value: String) throws {
        let head = try parse("POST /ingest HTTP/1.1\r\nContent-Length: \(value)\r\n\r\n")
        #expect(throws: RequestHeadError.self) { try head.contentLength() }
    }

    @Test func differingDuplicateContentLengthsAreRefusedEqualOnesAccepted() throws {
        let differ = try parse("POST /ingest HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n")
        #expect(throws: RequestHeadError.self) { try differ.contentLength() }
        let same = try parse("POST /ingest HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n")
        #expect(try same.contentLength() == 5)
    }
}
