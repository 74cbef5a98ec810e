import Dispatch
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging
import Synchronization

/// The location keep-alive log (opt-in, `location.enabled`): every `location.interval_seconds`
/// it connects to gpsd, watches for a fix and records it as a `location` sample (value the
/// latitude; longitude, altitude, mode and error in metadata). With no fix for
/// `location.retry_seconds` it asks again on a fresh connection, so a gpsd that restarted is
/// found again; a tick without any fix is skipped. The last fix is kept in the store's state
/// (`location.last_fix`) for `healthspool status`.
///
/// `run()` blocks a Dispatch thread of its own (socket reads with deadlines), never the
/// cooperative pool, and returns when its task is cancelled or `stop()` is called.
public final class LocationSampler: Sendable {
    /// Opens its store connection (on its thread, when `run()` starts).
    let connect: @Sendable () throws -> SampleStore
    let logger: Logger
    let address: String
    let intervalMillis: Int64
    let retryMillis: Int64
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "healthspool.location")

    /// A sampler with the `location.*` settings of `settings`, recording into the store that
    /// `connect` opens.
    public init(settings: Settings, connect: @escaping @Sendable () throws -> SampleStore, logger: Logger) {
        self.connect = connect
        self.logger = logger
        address = settings.locationGpsd
        intervalMillis = Int64(settings.locationIntervalSeconds) * 1000
        retryMillis = Int64(settings.locationRetrySeconds) * 1000
    }

    /// Records positions until cancelled.
    public func run() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                queue.async {
                    self.loop()
                    done.resume()
                }
            }
        } onCancel: {
            self.stop()
        }
    }

    /// Ends `run()` within about half a second.
    public func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        wake.signal()
    }

    var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    private func loop() {
        let store: SampleStore
        do { store = try connect() } catch {
            logger.error("location log: cannot open the store: \(error)", metadata: ["event": "location"])
            return
        }
        logger.info("location log: a position from gpsd at \(address) every \(intervalMillis / 1000) s",
                    metadata: ["event": "location"])
        var reachable = true
        while !isStopped {
            let tick = GpsdConnection.monotonicMillis()
            let result = acquire(until: tick + intervalMillis)
            switch result {
            case let .fix(fix):
                if !reachable { logger.notice("location log: gpsd at \(address) answers again", metadata: ["event": "location"]) }
                reachable = true
                record(fix, in: store)
            case let .failed(error):
                if reachable { logger.warning("location log: \(error); asking again every \(retryMillis / 1000) s", metadata: ["event": "location"]) }
                reachable = false
            case .stopped:
                return
            }
            let left = tick + intervalMillis - GpsdConnection.monotonicMillis()
            if left > 0, wake.wait(timeout: .now() + .milliseconds(Int(left))) == .success { return }
        }
    }

    enum Attempt { case fix(GpsFix), failed(String), stopped }

    /// A fix before `deadline`: connect, watch, wait up to `retryMillis`; without one, again on a
    /// fresh connection.
    func acquire(until deadline: Int64) -> Attempt {
        var lastError = "no fix from gpsd at \(address) within \(retryMillis / 1000) s"
        while !isStopped {
            let now = GpsdConnection.monotonicMillis()
            guard now < deadline else { return .failed(lastError) }
            let askAgain = min(deadline, now + retryMillis)
            do {
                let c = try GpsdConnection(address: address, timeoutMillis: 2000)
                try c.watch()
                while !isStopped, GpsdConnection.monotonicMillis() < askAgain {
                    if let fix = try c.nextFix(deadline: min(askAgain, GpsdConnection.monotonicMillis() + 500)) { return .fix(fix) }
                }
                lastError = "no fix from gpsd at \(address) within \(retryMillis / 1000) s"
            } catch {
                lastError = error.description
                // Not reachable: wait for the retry time (or the end of the tick) before asking again.
                let left = askAgain - GpsdConnection.monotonicMillis()
                if left > 0, wake.wait(timeout: .now() + .milliseconds(Int(left))) == .success { return .stopped }
            }
        }
        return .stopped
    }

    private func record(_ fix: GpsFix, in store: SampleStore) {
        let now = RealTimeClock.now()
        let at = now    // the instant it was recorded; gpsd's own time is kept in metadata
        var metadata = ["latitude": String(fix.latitude), "longitude": String(fix.longitude), "mode": String(fix.mode)]
        if let a = fix.altitude { metadata["altitude"] = String(a) }
        if let e = fix.horizontalError { metadata["horizontalError"] = String(e) }
        if let t = fix.time { metadata["gpsTime"] = t.iso8601UTC }
        let sample = Sample(type: "location", value: fix.latitude, unit: "deg", start: at,
                            source: SampleSource(name: "gpsd", device: fix.device), metadata: metadata)
        do {
            _ = try store.insert([sample], now: now)
            var w = JSONWriter(capacity: 160)
            w.sortedObject(metadata.merging(["at": at.iso8601Local]) { a, _ in a })
            try store.setState("location.last_fix", w.text)
            logger.debug("location log: \(fix.latitude), \(fix.longitude)", metadata: ["event": "location"])
        } catch {
            logger.error("location log: cannot store the position: \(error)", metadata: ["event": "location"])
        }
    }
}
