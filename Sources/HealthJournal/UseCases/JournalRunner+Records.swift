/// `healthspool records`: what the records page shows, on the command's store.
extension JournalRunner {
    /// The providers' records, hearing tests and vision prescriptions (`HealthRecords`).
    public func healthRecords() throws -> HealthRecords { try HealthRecords.read(entries.store) }
}
