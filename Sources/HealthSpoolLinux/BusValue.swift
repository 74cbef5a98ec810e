/// One D-Bus value as plain Swift, before it is written into an sd-bus message: what a method
/// call carries can be built and checked without a bus (`BusConnection` does the writing).
public indirect enum BusValue: Sendable, Equatable {
    case byte(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    case string(String)
    case boolean(Bool)
    /// An object path (`o`).
    case objectPath(String)
    /// A byte array (`ay`), written in one piece.
    case bytes([UInt8])
    /// A structure (`(…)`) of these members in order.
    case structure([BusValue])
    /// An array whose elements all have `elementSignature` (needed when it is empty).
    case array(elementSignature: String, [BusValue])
    /// A `{key value}` entry of a dictionary (an array of entries).
    case dictEntry(BusValue, BusValue)
    /// A value carrying its own type (`v`).
    case variant(BusValue)

    /// The D-Bus type signature of this value: `s`, `as`, `a{sv}`, …
    public var signature: String {
        switch self {
        case .byte: "y"
        case .int32: "i"
        case .uint32: "u"
        case .string: "s"
        case .boolean: "b"
        case .objectPath: "o"
        case .bytes: "ay"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        }
    }

    /// An `as` array.
    public static func strings(_ values: [String]) -> BusValue {
        .array(elementSignature: "s", values.map { .string($0) })
    }

    /// An `a{ss}` dictionary, its entries in the order given.
    public static func stringDictionary(_ entries: [(String, String)]) -> BusValue {
        .array(elementSignature: "{ss}", entries.map { .dictEntry(.string($0.0), .string($0.1)) })
    }

    /// An `a{sv}` dictionary, its entries in the order given.
    public static func variantDictionary(_ entries: [(String, BusValue)]) -> BusValue {
        .array(elementSignature: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }
}

extension Array where Element == BusValue {
    /// The signature of a message body holding these values in order.
    public var signature: String { map(\.signature).joined() }
}
