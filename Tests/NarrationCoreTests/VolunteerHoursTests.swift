import Foundation
import NarrationCore
import NarrationTestSupport
import Testing

/// Hand-made timelines in UTC: `at("2026-11-23 23:40")` is that minute.
private let utc = TimeZone(identifier: "UTC")!

private func at(_ text: String) -> Date { utcMinute(text) }

/// A take of `seconds` kept at `kept` (so it began `seconds` earlier).
private func take(_ kept: String, _ seconds: Double, by narrator: String = "Ann") -> VolunteerHours.Event {
    VolunteerHours.Event(narrator: narrator, time: at(kept), kind: .take(seconds: seconds))
}

private func event(_ time: String, _ kind: VolunteerHours.Event.Kind, by narrator: String = "Ann") -> VolunteerHours.Event {
    VolunteerHours.Event(narrator: narrator, time: at(time), kind: kind)
}

/// Each row as `day narrator volunteer sessions takes recorded delivered`, minutes with one decimal.
private func lines(_ events: [VolunteerHours.Event], _ filter: VolunteerHours.Filter = .init()) -> [String] {
    VolunteerHours.report(events, filter: filter, timeZone: utc).map {
        "\($0.day) \($0.narrator) \(VolunteerDay.minutes($0.volunteerSeconds)) \($0.sessions) \($0.takes) "
            + "\(VolunteerDay.minutes($0.recordedSeconds)) \(VolunteerDay.minutes($0.deliveredSeconds))"
    }
}

@Suite("Volunteer hours: sessions from takes, edits, queues and deliveries")
struct VolunteerHoursTests {
    @Test("a session from 23:40 to 00:20 gives 20 minutes to each day, one session on the first")
    func acrossMidnight() {
        let events = [take("2026-11-23 23:45", 300), event("2026-11-23 23:58", .edit), event("2026-11-24 00:10", .edit), take("2026-11-24 00:20", 60)]
        #expect(lines(events) == [
            "2026-11-23 Ann 20.0 1 1 5.0 0.0",
            "2026-11-24 Ann 20.0 0 1 1.0 0.0",
        ])
    }

    @Test("a 16-minute gap ends a session and is not counted; a 14-minute one does not", arguments: [
        (16, ["2026-11-23 Ann 10.0 2 2 10.0 0.0"]),
        (14, ["2026-11-23 Ann 24.0 1 2 10.0 0.0"]),
    ])
    func idleGap(gapMinutes: Int, expected: [String]) {
        // 10:00–10:05, then a gap, then a 5-minute take.
        let kept = at("2026-11-23 10:05").addingTimeInterval(Double(gapMinutes) * 60 + 300)
        let second = VolunteerHours.Event(narrator: "Ann", time: kept, kind: .take(seconds: 300))
        #expect(lines([take("2026-11-23 10:05", 300), second]) == expected)
    }

    @Test("a gap of exactly 15 minutes continues the session")
    func exactLimit() {
        #expect(lines([take("2026-11-23 10:05", 300), event("2026-11-23 10:20", .edit)]) == ["2026-11-23 Ann 20.0 1 1 5.0 0.0"])
    }

    @Test("edits and a queue extend a session; one after a long pause or before any take does not")
    func editsExtend() {
        let events = [
            event("2026-11-23 09:50", .edit),  // before the first take: no session
            take("2026-11-23 10:05", 300),
            event("2026-11-23 10:15", .edit),
            event("2026-11-23 10:28", .queue),
            event("2026-11-23 10:50", .edit),  // 22 minutes later: ends the session, starts none
        ]
        #expect(lines(events) == ["2026-11-23 Ann 28.0 1 1 5.0 0.0"])
    }

    @Test("a delivery two days later counts its audio on its own day and no volunteer time")
    func deliveryOnAnotherDay() {
        let events = [
            take("2026-11-23 10:05", 300),
            event("2026-11-23 10:06", .queue),
            event("2026-11-25 09:00", .delivery(seconds: 300)),
        ]
        #expect(lines(events) == [
            "2026-11-23 Ann 6.0 1 1 5.0 0.0",
            "2026-11-25 Ann 0.0 0 0 0.0 5.0",
        ])
    }

    @Test("narrators' sessions are their own; an article without one counts as (no narrator)")
    func narrators() {
        let events = [
            take("2026-11-23 10:05", 300, by: "Ann"),
            take("2026-11-23 10:15", 120, by: "Bob"),  // does not extend Ann's session
            take("2026-11-23 10:40", 60, by: " "),
        ]
        #expect(lines(events) == [
            "2026-11-23 (no narrator) 1.0 1 1 1.0 0.0",
            "2026-11-23 Ann 5.0 1 1 5.0 0.0",
            "2026-11-23 Bob 2.0 1 1 2.0 0.0",
        ])
    }

    @Test("--narrator keeps one narrator, in any case; --from and --to keep days, counting the part of a session inside")
    func filters() {
        let events = [
            take("2026-11-22 12:05", 300, by: "Ann"),
            take("2026-11-23 23:45", 300, by: "Ann"), event("2026-11-23 23:58", .edit), event("2026-11-24 00:10", .edit), take("2026-11-24 00:20", 60, by: "Ann"),
            take("2026-11-24 09:10", 600, by: "Bob"),
            take("2026-11-25 08:05", 300, by: "Ann"),
        ]
        #expect(lines(events, .init(narrator: "ann")) == [
            "2026-11-22 Ann 5.0 1 1 5.0 0.0",
            "2026-11-23 Ann 20.0 1 1 5.0 0.0",
            "2026-11-24 Ann 20.0 0 1 1.0 0.0",
            "2026-11-25 Ann 5.0 1 1 5.0 0.0",
        ])
        let day = CalendarDay("2026-11-24")
        #expect(lines(events, .init(from: day, to: day)) == [
            "2026-11-24 Ann 20.0 0 1 1.0 0.0",
            "2026-11-24 Bob 10.0 1 1 10.0 0.0",
        ])
        #expect(lines(events, .init(from: CalendarDay("2026-11-25"), narrator: "Bob")).isEmpty)
        #expect(lines([take("2026-11-23 10:05", 60, by: "")], .init(narrator: "(no narrator)")) == ["2026-11-23 (no narrator) 1.0 1 1 1.0 0.0"])
    }

    @Test("days are split at midnight in the time zone given")
    func timeZone() {
        // 22:40–23:20 UTC is 23:40–00:20 in Berlin in November (UTC+1).
        let events = [take("2026-11-23 22:45", 300), event("2026-11-23 22:58", .edit), event("2026-11-23 23:10", .edit), take("2026-11-23 23:20", 60)]
        let rows = VolunteerHours.report(events, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(rows.map { "\($0.day) \(VolunteerDay.minutes($0.volunteerSeconds))" } == ["2026-11-23 20.0", "2026-11-24 20.0"])
    }

    @Test("a day is read only as YYYY-MM-DD and a real date", arguments: ["2026-11-24", "2026-2-01", "2026-02-30", "tomorrow", ""])
    func days(text: String) {
        #expect(CalendarDay(text)?.description == (text == "2026-11-24" ? "2026-11-24" : nil))
    }
}
