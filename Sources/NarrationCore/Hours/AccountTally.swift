public import Foundation

/// What an account did in a day or a month, or a report's totals: session time, and the audio
/// recorded and heard.
public struct AccountTally: Sendable, Equatable {
    /// Sessions that started in the period.
    public var sessions = 0
    /// The part of the sessions that fell in the period.
    public var sessionSeconds: TimeInterval = 0
    /// Takes kept in the period.
    public var takes = 0
    /// The audio of those takes and of the pickups.
    public var recordedSeconds: TimeInterval = 0
    /// Pickups (takes and punches for a proof-listener's note) made in the period.
    public var pickups = 0
    /// The audio of those pickups, a part of `recordedSeconds`.
    public var pickupSeconds: TimeInterval = 0
    /// Audio a proof-listener heard in the period.
    public var reviewedSeconds: TimeInterval = 0

    public init() {}

    /// The sum of `self` and `other`.
    public func adding(_ other: AccountTally) -> AccountTally {
        var sum = self
        sum.sessions += other.sessions
        sum.sessionSeconds += other.sessionSeconds
        sum.takes += other.takes
        sum.recordedSeconds += other.recordedSeconds
        sum.pickups += other.pickups
        sum.pickupSeconds += other.pickupSeconds
        sum.reviewedSeconds += other.reviewedSeconds
        return sum
    }

    /// Session time in hours as the report shows them: two decimals.
    public static func hours(_ seconds: TimeInterval) -> String {
        String(format: "%.2f", (seconds / 3600 * 100).rounded() / 100)
    }
}

/// One account's day: session time split at local midnight, audio on the day it was kept or heard.
public struct AccountDay: Sendable, Equatable {
    public let day: CalendarDay
    public let account: AccountName
    public var tally = AccountTally()
}

/// One row of the report by account, role and month.
public struct AccountMonth: Sendable, Equatable {
    public let month: CalendarMonth
    public let account: AccountName
    /// The account's role now; nil for an account the store no longer has.
    public let role: Role?
    public var tally: AccountTally
}

/// The report by account, role and month for a funder: its rows and their totals.
public struct AccountHoursReport: Sendable, Equatable {
    /// By month, then account.
    public let rows: [AccountMonth]
    public let totals: AccountTally
}
