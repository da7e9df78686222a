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
