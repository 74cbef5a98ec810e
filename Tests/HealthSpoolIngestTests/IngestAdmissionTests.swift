import Testing
@testable import HealthSpoolIngest

@Suite struct IngestAdmissionTests {
    let token = Array("0123456789abcdef0123".utf8)

    func decide(_ text: String, max: Int = 1000) throws -> IngestAdmission {
        IngestAdmission.decide(try RequestHead.parse(Array(text.utf8)), token: token, maxBodyBytes: max)
    }

    func status(_ a: IngestAdmission) -> Int? {
        if case .refuse(let s, _) = a { return s }
        return nil
    }

    @Test func aBearerOrAnAPIKeyWithTheTokenReadsTheBody() throws {
        #expect(try decide("POST /ingest HTTP/1.1\r\nAuthorization: Bearer 0123456789abcdef0123\r\nContent-Length: 10\r\n\r\n") == .readBody(length: 10))
        #expect(try decide("POST /ingest HTTP/1.1\r\nx-api-key: 0123456789abcdef0123\r\nContent-Length: 10\r\n\r\n") == .readBody(length: 10))
        #expect(try decide("POST /ingest HTTP/1.1\r\nAuthorization: bearer 0123456789abcdef0123\r\nContent-Length: 10\r\n\r\n") == .readBody(length: 10))
    }

    @Test(arguments: [
        "POST /ingest HTTP/1.1\r\nContent-Length: 10\r\n\r\n",
        "POST /ingest HTTP/1.1\r\nAuthorization: Bearer 0123456789abcdef012\r\nContent-Length: 10\r\n\r\n",
        "POST /ingest HTTP/1.1\r\nAuthorization: Bearer 0123456789abcdef01234\r\nContent-Length: 10\r\n\r\n",
        "POST /ingest HTTP/1.1\r\nAuthorization: Basic 0123456789abcdef0123\r\nContent-Length: 10\r\n\r\n",
        "POST /ingest HTTP/1.1\r\nX-API-Key: 0123456789abcdef0123\r\nX-API-Key: wrong\r\nContent-Length: 10\r\n\r\n",
    ])
    func aMissingOrWrongTokenIs401(_ text: String) throws {
        #expect(status(try decide(text)) == 401)
    }

    @Test func theTokenIsCheckedBeforeTheLengthSoStrangersLearnNothing() throws {
        #expect(status(try decide("POST /ingest HTTP/1.1\r\nContent-Length: 999999\r\n\r\n")) == 401)
    }

    @Test func pathMethodLengthAndEncodingHaveTheirStatuses() throws {
        let auth = "X-API-Key: 0123456789abcdef0123\r\n"
        #expect(status(try decide("POST /other HTTP/1.1\r\n\(auth)Content-Length: 1\r\n\r\n")) == 404)
        #expect(status(try decide("GET /ingest HTTP/1.1\r\n\(auth)\r\n")) == 405)
        #expect(status(try decide("POST /ingest HTTP/1.1\r\n\(auth)Content-Length: 1001\r\n\r\n")) == 413)
        #expect(try decide("POST /ingest HTTP/1.1\r\n\(auth)Content-Length: 1000\r\n\r\n") == .readBody(length: 1000))
        #expect(status(try decide("POST /ingest HTTP/1.1\r\n\(auth)\r\n")) == 411)
        #expect(status(try decide("POST /ingest HTTP/1.1\r\n\(auth)Transfer-Encoding: chunked\r\n\r\n")) == 411)
        #expect(status(try decide("POST /ingest HTTP/1.1\r\n\(auth)Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n")) == 400)
        #expect(status(try decide("POST /ingest HTTP/1.1\r\n\(auth)Content-Length: 0\r\n\r\n")) == 400)
    }

    @Test func constantTimeComparisonIsStillEquality() {
        #expect(IngestAdmission.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!IngestAdmission.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!IngestAdmission.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!IngestAdmission.constantTimeEqual([], Array("a".utf8)))
        // Lengths that differ by a multiple of 256 must still differ.
        #expect(!IngestAdmission.constantTimeEqual([UInt8](repeating: 0, count: 256), []))
    }
}
