public import Foundation

/// The minute `text` ("2026-11-23 23:40") names in UTC: hand-made timelines for tests of time
/// spans and calendar days.
public func utcMinute(_ text: String) -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")!
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    guard let date = formatter.date(from: text) else { preconditionFailure("not a time: \(text)") }
    return date
}
