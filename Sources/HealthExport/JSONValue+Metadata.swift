import HealthSpoolCore

extension JSONValue {
    /// A scalar as metadata text (numbers in canonical form); nil for null, arrays and objects.
    var metadataText: String? {
        switch self {
        case let .string(s): s
        case let .number(d): SampleIdentity.canonicalNumber(d)
        case let .bool(b): b ? "true" : "false"
        default: nil
        }
    }
}
