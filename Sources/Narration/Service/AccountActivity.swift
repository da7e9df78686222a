public import Foundation
public import NarrationCore

/// What accounts do in a reading service, recorded for their hours as they do it: one function
/// per kind of work for the server and the studio to call, and the report by account, role and
/// month (`AccountHours`) read back from the log.
///
/// Recording checks no permission: the server records work it has already allowed (a take on
/// an article it let the account record). Reading does: `hours(seenBy:)` gives a volunteer or
/// proof-listener their own hours only.
///
/// The world comes in as arguments: the stores and the clock. Times are kept to the whole
/// second, as the audit log keeps them, so every store returns what it was given.
public final class AccountActivity: Sendable {
    public let store: any AccountActivityStore
    private let accounts: any AccountStore
    private let clock: @Sendable () -> Date

    public init(store: any AccountActivityStore, accounts: any AccountStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.accounts = accounts
        self.clock = clock
    }

    /// `account` read or edited the text or details of `article`.
    /// - Throws: `unknownAccount`.
    public func preparation(by account: AccountName, article: ArticleID?) throws(NarrationError) {
        try record(account, .preparation, .zero, article)
    }

    /// `account` kept a take of `seconds` on `article`, now.
    /// - Throws: `usage` when `seconds` is not a length of audio (`ActivitySeconds`); `unknownAccount`.
    public func take(by account: AccountName, article: ArticleID?, seconds: Double) throws(NarrationError) {
        try record(account, .take, try ActivitySeconds(seconds), article)
    }

    /// `account` made a pickup of `seconds` (a take or punch for a proof-listener's note) on
    /// `article`, now.
    /// - Throws: `usage` when `seconds` is not a length of audio (`ActivitySeconds`); `unknownAccount`.
    public func pickup(by account: AccountName, article: ArticleID?, seconds: Double) throws(NarrationError) {
        try record(account, .pickup, try ActivitySeconds(seconds), article)
    }

    /// `account` stopped listening to `article` after hearing `seconds` of it, or pinned a note
    /// (`seconds` 0), now.
    /// - Throws: `usage` when `seconds` is not a length of audio (`ActivitySeconds`); `unknownAccount`.
    public func review(by account: AccountName, article: ArticleID?, secondsHeard seconds: Double) throws(NarrationError) {
        try record(account, .review, try ActivitySeconds(seconds), article)
    }

    /// The report by account, role and month, from the whole log: every month, or only `month`,
    /// with days and months in `timeZone`. Roles are the accounts' roles now.
    public func hours(month: CalendarMonth? = nil, timeZone: TimeZone) throws(NarrationError) -> AccountHoursReport {
        let roles = Dictionary(try accounts.accounts().map { ($0.name, $0.role) }, uniquingKeysWith: { first, _ in first })
        return AccountHours.report(try store.activity(of: nil), roles: roles, month: month, timeZone: timeZone)
    }

    /// The report as `viewer` may see it: every account's when `Permissions` lets them see all
    /// hours (coordinators and admins), else only their own rows and totals.
    /// - Throws: `accountRefused` when `viewer` is disabled.
    public func hours(seenBy viewer: Account, month: CalendarMonth? = nil, timeZone: TimeZone) throws(NarrationError) -> AccountHoursReport {
        guard viewer.isEnabled else { throw .accountDisabled(viewer.name) }
        guard !Permissions.may(viewer, .viewAllHours, nil) else { return try hours(month: month, timeZone: timeZone) }
        return AccountHours.report(try store.activity(of: viewer.name), roles: [viewer.name: viewer.role], month: month, timeZone: timeZone)
    }

    private func record(_ account: AccountName, _ kind: ActivityRecord.Kind, _ length: ActivitySeconds, _ article: ArticleID?) throws(NarrationError) {
        let now = Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down))
        try store.appendActivity(ActivityRecord(account: account, kind: kind, length: length, article: article, at: now))
    }
}
