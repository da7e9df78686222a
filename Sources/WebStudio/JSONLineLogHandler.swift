import Foundation
import Logging

/// A reading service's log as one JSON object per line (`narrate serve --log json`), for journald
/// or a log shipper: `{"level":"info","message":"take kept","time":"2026-11-27T08:40:00.123Z",…}`,
/// the event's metadata as further keys (a key the line has already is prefixed `meta_`).
/// Keys are sorted, text is escaped the JSON way, so a line never breaks in two.
///
/// Written here because swift-log ships only a plain-text handler; swift-log's API is what the
/// server's parts log through.
struct JSONLineLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info
    /// Where each line goes (with its newline): stderr unless a test listens.
    let write: @Sendable (String) -> Void

    init(write: @escaping @Sendable (String) -> Void = JSONLineLogHandler.standardError) {
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        write(Self.line(event, metadata: metadata.merging(metadataProvider?.get() ?? [:]) { $1 }, now: Date()))
    }

    /// The event's line: its time (UTC, milliseconds), level, message and metadata.
    static func line(_ event: LogEvent, metadata base: Logger.Metadata, now: Date) -> String {
        var object: [String: Any] = [:]
        for (key, value) in base.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[["time", "level", "message"].contains(key) ? "meta_" + key : key] = json(value)
        }
        object["time"] = timestamp(now)
        object["level"] = event.level.rawValue
        object["message"] = event.message.description
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    private static func timestamp(_ date: Date) -> String {
        var time = Calendar(identifier: .gregorian)
        time.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = time.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0,
            parts.second ?? 0, (parts.nanosecond ?? 0) / 1_000_000)
    }

    /// Writes a line to stderr in one call, so lines of several threads never interleave.
    @Sendable static func standardError(_ line: String) {
        try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
    }
}

extension WebStudioServer {
    /// The reading service's log lines on stderr, for `Service.logLines`.
    public static let logToStandardError: @Sendable (String) -> Void = JSONLineLogHandler.standardError

    /// Whole milliseconds of `duration`, as the log's lines give times.
    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// A logger writing `lines` through `JSONLineLogHandler`, from `info` up.
    static func serviceLog(_ lines: @escaping @Sendable (String) -> Void) -> Logger {
        var logger = Logger(label: "narrate") { _ in JSONLineLogHandler(write: lines) }
        logger.logLevel = .info
        return logger
    }
}
