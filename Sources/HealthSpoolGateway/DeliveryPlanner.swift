/// Plans the requests of one delivery, synchronously and without a network: which part of the
/// batch goes next, and what each answer means for its samples. A batch the gateway rejects as
/// a whole is halved until the offending samples stand alone (they are parked, the rest is
/// delivered); a failure that may pass later (5xx, 429, timeout) or a refusal of the
/// credentials or configuration leaves every part not yet sent for later.
///
/// `GatewayClient` drives it: `next()` → send that part → `record(_:for:)`, until `next()` is nil.
public struct DeliveryPlanner: Sendable {
    /// What the delivery came to so far.
    public private(set) var outcome = DeliveryOutcome()
    /// Parts still to send, the next one last.
    private var pending: [Range<Int>]

    /// A plan for a batch of `count` samples: one request for all of them, to start with.
    public init(count: Int) {
        pending = count > 0 ? [0..<count] : []
    }

    /// Bytes a request adds around its records (envelope, brackets, a Confluent record's
    /// wrapping is counted per record).
    public static let bodyOverhead = 512
    public static let recordOverhead = 64

    /// A plan whose requests keep under `maxBodyBytes`: consecutive records, in order, as many
    /// as fit (`recordBytes[i]` is record i's size); a record larger than the limit goes alone.
    public init(recordBytes: [Int], maxBodyBytes: Int) {
        var parts: [Range<Int>] = []
        var from = 0, size = Self.bodyOverhead
        for (i, n) in recordBytes.enumerated() {
            let add = n + Self.recordOverhead
            if i > from, size + add > maxBodyBytes {
                parts.append(from..<i)
                from = i
                size = Self.bodyOverhead
            }
            size += add
        }
        if from < recordBytes.count { parts.append(from..<recordBytes.count) }
        pending = parts.reversed()
    }

    /// The next part to send, or nil when the delivery is over. After a halt or a stop, the
    /// parts not sent are marked for retry without a request.
    public mutating func next() -> Range<Int>? {
        while let part = pending.popLast() {
            guard !part.isEmpty else { continue }
            if outcome.stopped || outcome.halted {
                outcome.retry.append(contentsOf: part)
                continue
            }
            return part
        }
        return nil
    }

    /// Folds in the gateway's answer for `part`: the request was made (`status` and the other
    /// response facts when it got one), and `verdict` says what became of the samples.
    public mutating func record(_ verdict: BatchVerdict, for part: Range<Int>, status: Int? = nil, newConnections: Int = 0,
                                retryAfterMillis: Int64? = nil) {
        outcome.requests += 1
        outcome.newConnections += newConnections
        if let status { outcome.lastStatus = status }
        if let retryAfterMillis { outcome.retryAfterMillis = max(outcome.retryAfterMillis ?? 0, retryAfterMillis) }
        switch verdict {
        case let .perRecord(verdicts):
            for (i, v) in zip(part, verdicts) {
                switch v {
                case .accepted: outcome.accepted += 1
                case let .retry(msg):
                    outcome.retry.append(i)
                    outcome.note(.http(status: outcome.lastStatus ?? 0, message: msg, retryAfterMillis: nil))
                case let .rejected(msg): outcome.rejected.append((i, msg))
                case let .unauthorized(msg):
                    outcome.retry.append(i); outcome.stopped = true
                    outcome.note(.unauthorized(status: outcome.lastStatus ?? 0, message: msg))
                case let .misconfigured(msg):
                    outcome.retry.append(i); outcome.stopped = true
                    outcome.note(.http(status: outcome.lastStatus ?? 0,
                                       message: "\(msg): check gateway.topic and gateway.cluster ('healthspool gateway test')",
                                       retryAfterMillis: nil))
                }
            }
        case let .retry(e):
            outcome.retry.append(contentsOf: part); outcome.note(e); outcome.halted = true
        case let .stop(e):
            outcome.retry.append(contentsOf: part); outcome.stopped = true; outcome.note(e)
        case let .rejected(e):
            if part.count == 1 {
                outcome.rejected.append((part.lowerBound, e.description))
            } else {
                // Left half first: pushed last.
                let mid = part.lowerBound + part.count / 2
                pending.append(mid..<part.upperBound)
                pending.append(part.lowerBound..<mid)
            }
        }
    }
}
