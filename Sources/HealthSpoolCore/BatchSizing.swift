/// How many samples one sync request carries (issue 32). A type whose queue holds at most
/// `gateway.batch_size` samples sends them all in one request, as it always did. A backlog (more
/// queued than that: after an outage, at start, a laptop back online) goes out in larger
/// requests, up to `gateway.backlog_batch_size`, so that it drains in fewer requests: what
/// costs a gateway most in a fleet's recovery is the number of requests, not their records.
///
/// Only while the gateway is quick: a request that answers after `gateway.timeout` is sent
/// again whole, so a larger one must not push a slow gateway past it. When the daemon's last
/// request took more than a quarter of the timeout, requests keep to `gateway.batch_size`
/// until one answers within it.
public struct BatchSizing: Sendable, Equatable {
    /// Samples per request when no backlog exists (`gateway.batch_size`).
    public var batchSize: Int
    /// Samples per request at most while a backlog exists (`gateway.backlog_batch_size`); not
    /// below `batchSize`.
    public var backlogBatchSize: Int
    /// The request timeout (`gateway.timeout`).
    public var timeoutSeconds: Int

    public init(batchSize: Int, backlogBatchSize: Int, timeoutSeconds: Int) {
        self.batchSize = max(1, batchSize)
        self.backlogBatchSize = max(self.batchSize, backlogBatchSize)
        self.timeoutSeconds = timeoutSeconds
    }

    /// The longest last request after which a backlog still goes in larger requests.
    public var quickSeconds: Double { Double(timeoutSeconds) / 4 }

    /// How many queued samples the next request reads at most, given how long the daemon's last
    /// request took, answered or failed (nil: none yet). Fewer queued than `batchSize`: they all
    /// go, whatever this says.
    public func limit(lastRequestSeconds: Double?) -> Int {
        if let last = lastRequestSeconds, last > quickSeconds { return batchSize }
        return backlogBatchSize
    }
}

extension Settings {
    /// The request sizes these settings ask for.
    public var batchSizing: BatchSizing {
        BatchSizing(batchSize: batchSize, backlogBatchSize: backlogBatchSize, timeoutSeconds: requestTimeoutSeconds)
    }
}
