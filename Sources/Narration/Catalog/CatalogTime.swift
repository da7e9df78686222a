import Foundation
import Synchronization

/// A time as the catalog's older tables keep it (`createdAt`, `recordedAt`, …): text in UTC,
/// `yyyy-MM-dd HH:mm:ss.SSS`, the form GRDB wrote, which both engines store as text and sort
/// in time order. (The service's tables keep whole seconds as `BIGINT` instead.)
enum CatalogTime {
    /// One formatter, used under a lock: `DateFormatter` is not safe to share between threads.
    private static let formatter = Mutex<DateFormatter>({
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter
    }())

    static func text(_ date: Date) -> String {
        formatter.withLock { $0.string(from: date) }
    }

    /// The time in `text`; nil when it is not in the catalog's form (with or without the milliseconds).
    static func date(_ text: String) -> Date? {
        formatter.withLock { formatter in
            if let date = formatter.date(from: text) { return date }
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            defer { formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS" }
            return formatter.date(from: text)
        }
    }
}
