import ArgumentParser
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon

/// The values the shell completion scripts offer (`healthspool --generate-completion-script`).
enum Completions {
    /// Registry type names.
    static let types = CompletionKind.list(DataType.all.map(\.name))
    /// Registry type names and category names.
    static let typesAndCategories = CompletionKind.list(DataType.all.map(\.name) + DataCategory.allCases.map(\.rawValue))
    /// Sync frequencies, and a type's delivery frequencies.
    static let frequencies = CompletionKind.list(SyncFrequency.allCases.map(\.rawValue) + ["immediate"])
    /// Wire formats of the gateway.
    static let formats = CompletionKind.list(GatewayFormat.allCases.map(\.rawValue))
    /// Gateway authentication methods.
    static let auth = CompletionKind.list(GatewayAuth.allCases.map(\.rawValue))
    /// today, yesterday and the last week's dates (YYYY-MM-DD, local time), worked out when completing.
    static let dates = CompletionKind.custom { _, _, _ in ["today", "yesterday"] + recentDates(count: 8) }
    /// This month and the previous ones (YYYY-MM).
    static let months = CompletionKind.custom { _, _, _ in Array(Set(recentDates(count: 62).map { String($0.prefix(7)) })).sorted().reversed() }

    /// The last `count` days, today first, in the machine's zone.
    static func recentDates(count: Int) -> [String] {
        let now = RealTimeClock.now()
        return (0..<count).map { back in
            Timestamp(millis: now.millis - Int64(back) * 86_400_000, utcOffsetSeconds: now.utcOffsetSeconds).localDate.description
        }
    }
}
