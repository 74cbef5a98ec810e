#if canImport(Glibc)
import Glibc
#endif
import CTLSServer
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging

/// One client of the ingest endpoint, served on its own thread: handshake, head, decision,
/// body into a `SpoolDrop`, check, answer. One request per connection (`Connection: close`).
struct IngestConnection {
    let server: IngestServer
    let fd: Int32
    let peer: String
    /// When the connection was accepted (monotonic seconds): the head's deadline counts from it.
    let accepted = IngestServer.monotonicSeconds()

    /// How reading ended when it did not deliver what was asked.
    enum ReadEnd: Error { case closed, timedOut, failed }

    func serve() {
        guard let conn = server.handshake(fd, peer: peer) else {
            server.finished(fd) { close(fd) }
            return
        }
        var authorized = false
        let (status, note) = handle(conn, authorized: &authorized)
        guard authorized else {
            // Never showed the token: counted in the minute's summary, not logged one by one.
            server.refused(.request)
            server.logger.debug("ingest: \(note)", metadata: ["event": "ingest", "ingest.peer": "\(peer)"])
            server.finished(fd) { hs_tls_close(conn) }
            return
        }
        var meta: Logger.Metadata = ["event": "ingest", "ingest.peer": "\(peer)"]
        if let status { meta["http.status"] = "\(status)" }
        if status == 200 {
            server.logger.notice("ingest: \(note)", metadata: meta)
        } else {
            server.logger.info("ingest: \(note)", metadata: meta)
        }
        server.finished(fd) { hs_tls_close(conn) }
    }

    /// Serves the one request; returns the status answered (nil: none could be) and a note for the log.
    /// `authorized` is set once the head carried the token (its answer is logged; the others
    /// are counted).
    func handle(_ conn: OpaquePointer, authorized: inout Bool) -> (Int?, String) {
        let limits = server.configuration.limits
        // The head.
        var buffer: [UInt8] = []
        var headEnd: Int?
        let headDeadline = accepted + limits.headSeconds
        var searched = 0
        while headEnd == nil {
            guard buffer.count <= RequestHead.maxBytes else { return answer(conn, 431, RequestHeadError.tooLarge.description) }
            var chunk = [UInt8](repeating: 0, count: 4096)
            switch read(conn, into: &chunk, until: headDeadline) {
            case .success(let n): buffer += chunk[0..<n]
            case .failure(.timedOut): return answer(conn, 408, "the request head did not arrive within \(Int(limits.headSeconds)) s")
            case .failure(let end): return (nil, end == .closed && server.stopping ? "stopped while a request head arrived" : "the client left before sending a request")
            }
            headEnd = RequestHead.end(in: buffer, from: max(0, searched - 3))
            searched = buffer.count
        }
        let head: RequestHead
        do { head = try RequestHead.parse(buffer[0..<headEnd!]) } catch { return answer(conn, error.status, error.description) }
        authorized = IngestAdmission.isAuthorized(head, token: server.configuration.token)
        let length: Int
        switch IngestAdmission.decide(head, token: server.configuration.token, maxBodyBytes: server.configuration.maxBodyBytes) {
        case .refuse(let status, let reason):
            let result = answer(conn, status, reason)
            // The body a refused client may still be sending, so its read of the answer is not reset.
            let announced = (try? head.contentLength()) ?? nil
            if let announced, announced > 0 { drain(conn, upTo: announced) }
            return result
        case .readBody(let n):
            length = n
            server.authorize(fd)
        }
        if head.values("expect").first?.lowercased() == "100-continue" {
            _ = write(conn, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), seconds: limits.answerSeconds)
        }

        // The body, into a hidden file in the spool.
        let drop: SpoolDrop
        do { drop = try SpoolDrop(spoolDir: server.configuration.spoolDir) } catch {
            server.logger.error("ingest: \(error)", metadata: ["event": "error"])
            return answer(conn, 503, "the spool cannot be written (see the daemon's log)")
        }
        var received = min(buffer.count - headEnd!, length)
        do {
            try buffer[headEnd!..<(headEnd! + received)].withUnsafeBytes { try drop.write($0) }
            let totalDeadline = IngestServer.monotonicSeconds() + limits.bodyTotalSeconds
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while received < length {
                let deadline = min(totalDeadline, IngestServer.monotonicSeconds() + limits.bodyIdleSeconds)
                let want = min(chunk.count, length - received)
                switch read(conn, into: &chunk, count: want, until: deadline) {
                case .success(let n):
                    try chunk[0..<n].withUnsafeBytes { try drop.write($0) }
                    received += n
                case .failure(.timedOut):
                    drop.discard()
                    let total = IngestServer.monotonicSeconds() >= totalDeadline
                    return answer(conn, 408, total ? "the body did not arrive within \(Int(limits.bodyTotalSeconds)) s"
                                                   : "the body stalled for \(Int(limits.bodyIdleSeconds)) s")
                case .failure(let end):
                    drop.discard()
                    let why = end == .closed && server.stopping ? "the daemon stopped" : "the client left"
                    return (nil, "\(why) after \(received) of \(length) bytes of the body; nothing kept")
                }
            }
        } catch {
            drop.discard()
            server.logger.error("ingest: \(error)", metadata: ["event": "error"])
            return answer(conn, 503, "the body could not be written to the spool (see the daemon's log)")
        }

        // The check, then the rename that hands the file to the spool watcher.
        let problem: String? = server.checking.withLock { _ in
            do {
                let body = try FileSystem.read(server.configuration.spoolDir + "/" + drop.temporaryName, limit: length + 1)
                return IngestPayload.problem(body)
            } catch { return "the body could not be read back: \(error)" }
        }
        if let problem {
            drop.discard()
            return answer(conn, 400, problem)
        }
        if server.stopping {
            drop.discard()
            return answer(conn, 503, "the daemon is stopping; nothing was kept, send it again")
        }
        do {
            let name = try drop.commit(now: RealTimeClock.now())
            let reply = JSONValue.object([("status", .string("accepted")), ("file", .string(name)), ("bytes", .number(Double(length)))])
            _ = respond(conn, 200, reply)
            return (200, "accepted \(length) bytes as \(name)")
        } catch {
            drop.discard()
            server.logger.error("ingest: \(error)", metadata: ["event": "error"])
            return answer(conn, 503, "the body could not be saved in the spool (see the daemon's log)")
        }
    }

    /// Answers an error with `{"error": reason}`.
    func answer(_ conn: OpaquePointer, _ status: Int, _ reason: String) -> (Int?, String) {
        _ = respond(conn, status, .object([("error", .string(reason))]))
        return (status, "\(status): \(reason)")
    }

    /// Writes a complete response with a JSON body.
    func respond(_ conn: OpaquePointer, _ status: Int, _ body: JSONValue) -> Bool {
        var w = JSONWriter()
        w.value(body)
        let bytes = Array(w.text.utf8) + [0x0A]
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\nContent-Type: application/json\r\n"
        head += "Content-Length: \(bytes.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
        if status == 401 { head += "WWW-Authenticate: Bearer realm=\"healthspool\"\r\n" }
        head += "\r\n"
        return write(conn, Array(head.utf8) + bytes, seconds: server.configuration.limits.answerSeconds)
    }

    /// After a refusal, reads and drops what the client still sends of the body it announced
    /// (at most 1 MiB, 2 s), so closing does not reset the connection before it read the answer.
    func drain(_ conn: OpaquePointer, upTo announced: Int) {
        let deadline = IngestServer.monotonicSeconds() + 2
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        let limit = min(announced, 1 << 20)
        while total < limit, case .success(let n) = read(conn, into: &chunk, until: deadline) { total += n }
    }

    func read(_ conn: OpaquePointer, into chunk: inout [UInt8], count: Int? = nil, until deadline: Double) -> Result<Int, ReadEnd> {
        let ms = Int32(max(0, min(deadline - IngestServer.monotonicSeconds(), 3600)) * 1000)
        guard ms > 0 else { return .failure(.timedOut) }
        let want = count ?? chunk.count
        let n = chunk.withUnsafeMutableBytes { hs_tls_read(conn, $0.baseAddress, want, ms) }
        switch n {
        case 0: return .failure(.closed)
        case -1: return .failure(.timedOut)
        case ..<0: return .failure(.failed)
        default: return .success(n)
        }
    }

    func write(_ conn: OpaquePointer, _ bytes: [UInt8], seconds: Double) -> Bool {
        bytes.withUnsafeBytes { hs_tls_write_all(conn, $0.baseAddress, $0.count, Int32(seconds * 1000)) } == 0
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 417: "Expectation Failed"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
