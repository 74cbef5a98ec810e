/// A form's `Fields` with fields the page sends once per ticked box (the repeat's weekdays:
/// `weekday=MO&weekday=WE`): `Form.decode` hands each of them to the decoder with every value
/// it was sent, as a list (`weekday[]`), where any other field counts with its first value.
protocol ListFields: Decodable {
    /// The names of the fields sent once per ticked box; each decodes as `[String]?` (nil: none ticked).
    static var lists: Set<String> { get }
}
