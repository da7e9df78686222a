import ArgumentParser
import NarrationCore

/// A time into a chunk as a volunteer types it: seconds (`12.5`) or `HH:MM:SS.mmm` (`1:02.5`).
struct TimeArgument: ExpressibleByArgument, Sendable {
    let seconds: Double

    init?(argument: String) {
        guard let seconds = Timecode.seconds(parsing: argument) else { return nil }
        self.seconds = seconds
    }

    static var defaultValueDescription: String { "seconds, or HH:MM:SS.mmm" }
}

/// `N@TIME` for `record --punch`: chunk N, TIME into it (seconds or HH:MM:SS.mmm).
struct PunchPoint: ExpressibleByArgument, Sendable {
    let chunk: Int
    let seconds: Double

    init?(argument: String) {
        let parts = argument.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let chunk = Int(parts[0]), chunk >= 1, let seconds = Timecode.seconds(parsing: String(parts[1])) else { return nil }
        self.chunk = chunk
        self.seconds = seconds
    }

    static var defaultValueDescription: String { "chunk@time, e.g. 3@12.5 or 3@00:00:12.500" }
}
