import Dispatch
@testable import HealthSpoolGateway
import Synchronization

/// A `GatewayTransport` that answers as the test says: 200 by default, a scripted status for
/// the next requests, or it holds a request until the test lets it go (a batch in flight).
/// It stands in for the network only; the worker, the store and the coordinator are real.
final class FakeGateway: GatewayTransport, Sendable {
    private struct State {
        var posts = 0
        var statuses: [Int] = []
        var holding = false
        var answerHeld: Int?
    }
    private let state = Mutex(State())
    private let release = DispatchSemaphore(value: 0)
    private let arrived = AsyncStream<Void>.makeStream()

    /// Requests received so far.
    var posts: Int { state.withLock { $0.posts } }

    /// The next requests are answered with these statuses, in order (then 200 again).
    func answer(_ statuses: Int...) { state.withLock { $0.statuses += statuses } }

    /// The next request is held until `letGo()`, then answered with `status`, or fails as a
    /// dropped connection when `status` is nil.
    func holdNextRequest(thenAnswer status: Int? = nil) { state.withLock { $0.holding = true; $0.answerHeld = status } }

    /// Lets a held request go.
    func letGo() { release.signal() }

    /// Returns once a request has arrived (held or not).
    func nextArrival() async {
        var iterator = arrived.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    func post(url: String, body: UnsafeRawBufferPointer, headers: [String]) throws(GatewayError) -> HTTPResponse {
        let (scripted, hold, held): (Int, Bool, Int?) = state.withLock { s in
            s.posts += 1
            defer { s.holding = false }
            return (s.statuses.isEmpty ? 200 : s.statuses.removeFirst(), s.holding, s.answerHeld)
        }
        arrived.continuation.yield()
        if hold {
            release.wait()
            guard held != nil else { throw .transport(code: 56, message: "connection dropped", url: url) }
        }
        let status = hold ? held ?? scripted : scripted
        return HTTPResponse(status: status, headers: [:], body: Array((status == 200 ? "{}" : "{\"message\":\"busy\"}").utf8),
                            newConnections: 0)
    }
}
