import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Whoever waits for a manual sync to finish: a client of the control socket (`healthspool
/// sync`, another process) or the web's "Sync now" in this process (`ManualSync`). Owned by
/// the sync coordinator (an actor), which tells it each finished type, how far the jobs in
/// flight are, and at last the outcome or why the sync was refused; `answer` is called on the
/// coordinator only, and its last call is `.done` or `.refused`.
final class SyncWaiter {
    /// What the waiter is told, in order.
    typealias Answer = ManualSync.Event

    let registered: Int64
    var remaining: Set<String>
    var results: [SyncJobResult] = []
    private let answer: (Answer) -> Void

    init(registered: Int64, answer: @escaping (Answer) -> Void) {
        self.registered = registered
        self.remaining = []
        self.answer = answer
    }

    func tell(_ a: Answer) { answer(a) }

    /// A waiter that answers a control socket client in newline-delimited JSON, then closes it.
    static func socket(_ fd: Int32, registered: Int64) -> SyncWaiter {
        SyncWaiter(registered: registered) { answer in
            switch answer {
            case let .finished(r):
                var w = JSONWriter()
                w.raw("{\"event\":\"progress\",\"type\":"); w.string(r.type)
                w.raw(",\"sent\":"); w.number(Int64(r.sent)); w.raw(",\"outcome\":"); w.string(r.outcome.rawValue); w.raw("}")
                send(fd, w)
            case .inFlight:
                break   // a client of the socket reads the status for that
            case let .done(results):
                var w = JSONWriter(capacity: 512)
                let sent = results.reduce(0) { $0 + $1.sent }
                w.raw("{\"event\":\"done\",\"outcome\":"); w.string(results.outcome.rawValue)
                w.raw(",\"sent\":"); w.number(Int64(sent))
                w.raw(",\"results\":[")
                for (n, r) in results.enumerated() {
                    if n > 0 { w.raw(",") }
                    w.raw("{\"type\":"); w.string(r.type)
                    w.raw(",\"outcome\":"); w.string(r.outcome.rawValue)
                    w.raw(",\"sent\":"); w.number(Int64(r.sent))
                    w.raw(",\"parked\":"); w.number(Int64(r.parked))
                    w.raw(",\"durationMs\":"); w.number(r.durationMillis)
                    w.raw(",\"error\":"); if let e = r.error { w.string(e.description) } else { w.raw("null") }
                    w.raw("}")
                }
                w.raw("]}")
                reply(fd, w)
            case let .refused(message):
                var w = JSONWriter()
                w.raw("{\"event\":\"error\",\"message\":"); w.string(message); w.raw("}")
                reply(fd, w)
            }
        }
    }

    /// A waiter in this process: each answer is an element of the stream, which ends after
    /// `.done` or `.refused`.
    static func stream(_ continuation: AsyncStream<Answer>.Continuation, registered: Int64) -> SyncWaiter {
        SyncWaiter(registered: registered) { answer in
            continuation.yield(answer)
            switch answer {
            case .done, .refused: continuation.finish()
            case .finished, .inFlight: break
            }
        }
    }

    /// Sends one line to a control socket client.
    static func send(_ fd: Int32, _ w: JSONWriter) {
        var bytes = w.bytes
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends a control socket client its last line and closes it.
    static func reply(_ fd: Int32, _ w: JSONWriter) {
        send(fd, w)
        Glibc.close(fd)
    }
}
