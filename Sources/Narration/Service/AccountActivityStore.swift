public import NarrationCore

/// Where a reading service keeps what each account did, for hours: the activity log.
///
/// The catalog keeps it today (`Catalog`, in SQLite), in plain SQL a PostgreSQL catalog can take
/// over. The log is only ever added to: there is no method to change or remove a record, and the
/// catalog refuses any attempt.
public protocol AccountActivityStore: Sendable {
    /// Adds `record` at the end of the log.
    /// - Throws: `unknownAccount` when no account has the record's name (nothing is written).
    func appendActivity(_ record: ActivityRecord) throws(NarrationError)

    /// The log in the order it was written: all of it, or the records of `account`.
    func activity(of account: AccountName?) throws(NarrationError) -> [ActivityRecord]
}

extension NarrationLibrary {
    /// Where the reading service's activity log is kept: this library's catalog.
    public var activityStore: any AccountActivityStore { catalog }
}
