import ArgumentParser
import NarrationCore

/// A time into a chunk as a volunteer types it: seconds (`12.5`) or `HH:MM:SS.mmm` (`1:02.5`).
///
/// Any text is taken when the line is parsed, so that the command's `validate()` can refuse a
/// time that is not one, or is out of range, with a sentence naming the option, the value and the
/// range (`checked(_:)`), instead of the parser's "The value is invalid".
struct TimeArgument: ExpressibleByArgument, Sendable {
    let text: String

    init?(argument: String) {
        text = argument
    }

    /// The time, checked: a number of seconds or HH:MM:SS.mmm from 0 to 24 hours.
    /// - Throws: `ValidationError` naming `option`, the text and the range.
    func checked(_ option: String) throws(ValidationError) -> AudioTime {
        guard let seconds = Timecode.seconds(parsing: text), let time = try? AudioTime(seconds: seconds) else {
            throw ValidationError("\(option) \(Self.shown(text)) is not a time in a chunk: give seconds (12.5) or HH:MM:SS.mmm, from 0 to 24:00:00.")
        }
        return time
    }

    /// `checked(_:)` for `run()`, after `validate()` has refused a bad time: the same sentence as
    /// a usage error.
    func checkedAsUsage(_ option: String) throws(NarrationError) -> AudioTime {
        do { return try checked(option) } catch { throw .usage(error.message) }
    }

    /// The text as typed, shortened to 40 characters.
    static func shown(_ text: String) -> String {
        text.count > 40 ? "\(text.prefix(40))…" : text
    }

    static var defaultValueDescription: String { "seconds, or HH:MM:SS.mmm" }
}

/// `N@TIME` for `record --punch`: chunk N, TIME into it (seconds or HH:MM:SS.mmm). Any text is
/// taken when the line is parsed; `checked()` refuses what is not a chunk and a time.
struct PunchPoint: ExpressibleByArgument, Sendable {
    let text: String

    init?(argument: String) {
        text = argument
    }

    /// The chunk number (1 or more) and the time, checked.
    /// - Throws: `ValidationError` naming the text and what `--punch` takes.
    func checked() throws(ValidationError) -> (chunk: Int, time: AudioTime) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let chunk = Int(parts[0]), chunk >= 1 else {
            throw ValidationError("--punch \(TimeArgument.shown(text)) is not a chunk and a time: give N@TIME, a chunk from 1 (see \"narrate chunks\") and a time into it, e.g. 3@12.5 or 3@00:00:12.500.")
        }
        guard let seconds = Timecode.seconds(parsing: String(parts[1])), let time = try? AudioTime(seconds: seconds) else {
            throw ValidationError("--punch \(TimeArgument.shown(text)) is not a time in chunk \(chunk): after the @ give seconds (12.5) or HH:MM:SS.mmm, from 0 to 24:00:00.")
        }
        return (chunk, time)
    }

    /// `checked()` for `run()`, after `validate()` has refused a bad point: the same sentence as
    /// a usage error.
    func checkedAsUsage() throws(NarrationError) -> (chunk: Int, time: AudioTime) {
        do { return try checked() } catch { throw .usage(error.message) }
    }

    static var defaultValueDescription: String { "chunk@time, e.g. 3@12.5 or 3@00:00:12.500" }
}
