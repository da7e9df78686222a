public import Foundation
public import Narration
public import NarrationCore

/// The scripted day of a reading service the issue asks for: three volunteers and a
/// proof-listener working on Tuesday 24 November 2026 (UTC), each event at an exact time through
/// `AccountActivity` on a hand clock, and the figures the session rule gives, computed by hand
/// below. Played once in memory and once into a real catalog read by the built binary.
///
/// The rule (`VolunteerHours`): a session starts at a take (here a take, a pickup or a review),
/// which began its length before it was kept; each later activity that starts within 15 minutes
/// (inclusive) of the end of the one before continues it; a preparation only continues one.
public enum ScriptedServiceDay {
    /// 08:00, before anyone works: the accounts are added then.
    public static let start = utcMinute("2026-11-24 08:00")

    public static let accounts: [(name: String, role: Role)] = [("ann", .volunteer), ("ben", .volunteer), ("cleo", .volunteer), ("dora", .proofListener)]

    /// What the events are about: one article per volunteer, read by dora.
    public static let articles = ["ann": ArticleID("ann00001"), "ben": ArticleID("ben00001"), "cleo": ArticleID("cle00001"), "dora": ArticleID("ann00001")]

    /// One event of the day: at `time` (UTC), `account` did `kind` with `seconds` of audio.
    public struct Step: Sendable {
        public let time: String
        public let account: String
        public let kind: ActivityRecord.Kind
        public let seconds: Double
    }

    /// The day in the order it happened; times are when each thing ended (a take when kept).
    public static let steps: [Step] = [
        // ann reads her article's text at 08:50: before her first take, so in no session.
        Step(time: "2026-11-24 08:50", account: "ann", kind: .preparation, seconds: 0),
        // ann's take of 5 min kept at 09:05 began at 09:00: her first session opens at 09:00.
        Step(time: "2026-11-24 09:05", account: "ann", kind: .take, seconds: 300),
        // An edit 7 min later continues it, to 09:12.
        Step(time: "2026-11-24 09:12", account: "ann", kind: .preparation, seconds: 0),
        // A take of 4 min kept at 09:20 began at 09:16, 4 min after: the session runs to 09:20 (20 min).
        Step(time: "2026-11-24 09:20", account: "ann", kind: .take, seconds: 240),
        // ann's take of 2 min kept at 09:50 began at 09:48, 28 min after 09:20: her second session.
        Step(time: "2026-11-24 09:50", account: "ann", kind: .take, seconds: 120),
        // ben's take of 10 min kept at 10:00 began at 09:50: his first session.
        Step(time: "2026-11-24 10:00", account: "ben", kind: .take, seconds: 600),
        // ann edits at 10:00, 10 min after: her second session runs 09:48–10:00 (12 min).
        Step(time: "2026-11-24 10:00", account: "ann", kind: .preparation, seconds: 0),
        // ben's 1-min take kept at 10:16 began at 10:15, exactly 15 min after 10:00: it continues.
        Step(time: "2026-11-24 10:16", account: "ben", kind: .take, seconds: 60),
        // ben edits at 10:32, 16 min after 10:16: his first session ended at 10:16 (26 min), and the
        // edit opens none.
        Step(time: "2026-11-24 10:32", account: "ben", kind: .preparation, seconds: 0),
        // ben's 2-min take kept at 10:40 began at 10:38: a second session of 2 min.
        Step(time: "2026-11-24 10:40", account: "ben", kind: .take, seconds: 120),
        // dora hears 10 min, stopping at 11:00: her session opens at 10:50.
        Step(time: "2026-11-24 11:00", account: "dora", kind: .review, seconds: 600),
        // A note at 11:03, 5 min heard 11:05–11:10, a note at 11:12: the session runs to 11:12 (22 min).
        Step(time: "2026-11-24 11:03", account: "dora", kind: .review, seconds: 0),
        Step(time: "2026-11-24 11:10", account: "dora", kind: .review, seconds: 300),
        Step(time: "2026-11-24 11:12", account: "dora", kind: .review, seconds: 0),
        // ann's pickup of 30 s kept at 14:30 began at 14:29:30: her third session.
        Step(time: "2026-11-24 14:30", account: "ann", kind: .pickup, seconds: 30),
        // A pickup of 42 s kept at 14:40 began at 14:39:18, 9 min 18 s after: the session runs to
        // 14:40 (10.5 min).
        Step(time: "2026-11-24 14:40", account: "ann", kind: .pickup, seconds: 42),
        // dora hears 8 min, 14:52–15:00: a second session of 8 min.
        Step(time: "2026-11-24 15:00", account: "dora", kind: .review, seconds: 480),
        // cleo records late: a 5-min take 23:45–23:50, then one 00:00–00:05, 10 min after: one
        // session 23:45–00:05 (20 min), 15 min on the 24th and 5 on the 25th, counted as a session
        // on the 24th.
        Step(time: "2026-11-24 23:50", account: "cleo", kind: .take, seconds: 300),
        Step(time: "2026-11-25 00:05", account: "cleo", kind: .take, seconds: 300),
        // ben in December: a 2-min take, one session of 2 min, in no November figure.
        Step(time: "2026-12-01 10:00", account: "ben", kind: .take, seconds: 120),
    ]

    /// One row's figures as the report gives them: minutes with one decimal, hours with two.
    public struct Figures: Sendable, Equatable, CustomStringConvertible {
        public let account: String
        public let role: String
        public let sessions: Int
        public let sessionMinutes: Double
        public let hours: Double
        public let takes: Int
        public let recordedMinutes: Double
        public let pickups: Int
        public let pickupMinutes: Double
        public let reviewedMinutes: Double

        public init(
            _ account: String, _ role: String, sessions: Int, sessionMinutes: Double, hours: Double, takes: Int, recordedMinutes: Double,
            pickups: Int, pickupMinutes: Double, reviewedMinutes: Double
        ) {
            self.account = account
            self.role = role
            self.sessions = sessions
            self.sessionMinutes = sessionMinutes
            self.hours = hours
            self.takes = takes
            self.recordedMinutes = recordedMinutes
            self.pickups = pickups
            self.pickupMinutes = pickupMinutes
            self.reviewedMinutes = reviewedMinutes
        }

        public var description: String {
            "\(account) \(role) \(sessions) \(sessionMinutes) \(hours) \(takes) \(recordedMinutes) \(pickups) \(pickupMinutes) \(reviewedMinutes)"
        }
    }

    /// November by account, from the comments above, and its totals.
    /// - ann: sessions 20 + 12 + 10.5 = 42.5 min, 3 sessions, 0.71 h (42.5 / 60 = 0.708);
    ///   takes 5 + 4 + 2 = 11 min and pickups 30 + 42 s = 1.2 min: 12.2 min recorded.
    /// - ben: 26 + 2 = 28 min in 2 sessions, 0.47 h (0.467); takes 10 + 1 + 2 = 13 min.
    /// - cleo: 15 + 5 = 20 min in 1 session, 0.33 h; takes 5 + 5 = 10 min.
    /// - dora: 22 + 8 = 30 min in 2 sessions, 0.50 h; heard 10 + 5 + 8 = 23 min.
    /// - totals: 8 sessions, 120.5 min, 2.01 h (120.5 / 60 = 2.008), 8 takes, 35.2 min recorded,
    ///   2 pickups of 1.2 min, 23 min heard.
    public static let november = [
        Figures("ann", "volunteer", sessions: 3, sessionMinutes: 42.5, hours: 0.71, takes: 3, recordedMinutes: 12.2, pickups: 2, pickupMinutes: 1.2, reviewedMinutes: 0),
        Figures("ben", "volunteer", sessions: 2, sessionMinutes: 28, hours: 0.47, takes: 3, recordedMinutes: 13, pickups: 0, pickupMinutes: 0, reviewedMinutes: 0),
        Figures("cleo", "volunteer", sessions: 1, sessionMinutes: 20, hours: 0.33, takes: 2, recordedMinutes: 10, pickups: 0, pickupMinutes: 0, reviewedMinutes: 0),
        Figures("dora", "proof-listener", sessions: 2, sessionMinutes: 30, hours: 0.5, takes: 0, recordedMinutes: 0, pickups: 0, pickupMinutes: 0, reviewedMinutes: 23),
    ]
    public static let novemberTotals =
        Figures("", "", sessions: 8, sessionMinutes: 120.5, hours: 2.01, takes: 8, recordedMinutes: 35.2, pickups: 2, pickupMinutes: 1.2, reviewedMinutes: 23)

    /// ben's December: one session of 2 min (0.03 h), one take of 2 min. With November, the
    /// totals of every month are 9 sessions, 122.5 min, 2.04 h (2.042), 9 takes, 37.2 min recorded.
    public static let decemberBen =
        Figures("ben", "volunteer", sessions: 1, sessionMinutes: 2, hours: 0.03, takes: 1, recordedMinutes: 2, pickups: 0, pickupMinutes: 0, reviewedMinutes: 0)
    public static let allTotals =
        Figures("", "", sessions: 9, sessionMinutes: 122.5, hours: 2.04, takes: 9, recordedMinutes: 37.2, pickups: 2, pickupMinutes: 1.2, reviewedMinutes: 23)

    /// Adds the four accounts with `accounts` at `start`, then plays `steps` through `activity`,
    /// moving `clock` (which must stand at `start`) to each step's time.
    public static func play(accounts: AccountService, activity: AccountActivity, clock: HandClock) throws {
        precondition(clock.date == start, "the scripted day starts at 08:00 on 24 November 2026")
        for (name, role) in Self.accounts { _ = try accounts.add(try AccountName(name), role: role, by: "admin") }
        for step in steps {
            clock.advance(utcMinute(step.time).timeIntervalSince(clock.date))
            let account = try AccountName(step.account)
            let article = articles[step.account]
            switch step.kind {
            case .preparation: try activity.preparation(by: account, article: article)
            case .take: try activity.take(by: account, article: article, seconds: step.seconds)
            case .pickup: try activity.pickup(by: account, article: article, seconds: step.seconds)
            case .review: try activity.review(by: account, article: article, secondsHeard: step.seconds)
            }
        }
    }

    /// A report's row or totals as `Figures`, rounded as the report prints them.
    public static func figures(_ tally: AccountTally, account: String = "", role: String = "") -> Figures {
        func minutes(_ seconds: Double) -> Double { (seconds / 60 * 10).rounded() / 10 }
        return Figures(
            account, role, sessions: tally.sessions, sessionMinutes: minutes(tally.sessionSeconds), hours: (tally.sessionSeconds / 3600 * 100).rounded() / 100,
            takes: tally.takes, recordedMinutes: minutes(tally.recordedSeconds), pickups: tally.pickups, pickupMinutes: minutes(tally.pickupSeconds),
            reviewedMinutes: minutes(tally.reviewedSeconds))
    }
}
