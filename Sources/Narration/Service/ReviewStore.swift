public import Foundation
public import NarrationCore

/// Where a reading service keeps its review: the notes proof-listeners pin to articles and the
/// snapshots of articles sent back.
///
/// The catalog keeps them today (`Catalog`, in SQLite), in plain SQL a PostgreSQL catalog can
/// take over. Each method that changes something is one transaction with its audit line. Notes
/// are never deleted, only marked done; a send-back is never changed.
public protocol ReviewStore: Sendable {
    /// Stores `note` and its audit line; returns the note with its number.
    func addNote(_ note: ReviewNote, audit: AuditEntry) throws(NarrationError) -> ReviewNote

    /// The article's notes, oldest first.
    func notes(of article: ArticleID) throws(NarrationError) -> [ReviewNote]

    /// Stores `sendBack` and makes every note of its article pinned since the last send-back one
    /// of its pickups, with the audit line `audit` makes of those notes; returns the send-back
    /// with its number, and its pickups.
    /// - Throws: `noNotesToSendBack` when no note is waiting to be sent back (nothing is written).
    func recordSendBack(
        _ sendBack: ReviewSendBack, audit: @escaping @Sendable ([ReviewNote]) -> AuditEntry
    ) throws(NarrationError) -> (sendBack: ReviewSendBack, pickups: [ReviewNote])

    /// The article's last send-back, if it was ever sent back.
    func latestSendBack(of article: ArticleID) throws(NarrationError) -> ReviewSendBack?

    /// Marks the note `id` of `article` done by `account` at `at` with the edit `edit`, only if,
    /// checked inside the transaction, it is a pickup of the article's last send-back and still
    /// open. Returns whether it was (nothing is written when not).
    func markPickupDone(
        _ id: Int64, of article: ArticleID, edit: Int, by account: AccountName, at: Date, audit: AuditEntry
    ) throws(NarrationError) -> Bool
}

extension NarrationLibrary {
    /// Where the reading service's review notes and send-backs are kept: this library's catalog.
    public var reviewStore: any ReviewStore { catalog }
}
