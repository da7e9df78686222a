/// Free disk space as the volunteer thinks of it: hours of recording left in an article's format.
///
/// Takes are written as WAV in the article's format, so an hour takes `sampleRate × channels ×
/// bytes per sample × 3600` bytes (44.1 kHz mono 16-bit: 318 MB an hour).
public struct RecordingSpace: Sendable, Equatable {
    /// Below this much recording time left, a long session may stop on a full disk.
    public static let warningHours = 2.0
    /// Below this (15 minutes), the disk is as good as full: a take or two and recording stops.
    public static let problemHours = 0.25

    /// Bytes the data root's file system lets narrate use (`statvfs`'s `f_bavail × f_frsize`).
    public let freeBytes: Int64
    public let format: AudioFormat

    public init(freeBytes: Int64, format: AudioFormat) {
        self.freeBytes = freeBytes
        self.format = format
    }

    /// Bytes one hour of takes in `format` takes.
    public var bytesPerHour: Int64 { Int64(format.sampleRate) * Int64(format.bytesPerFrame) * 3600 }

    /// Hours of recording that fit.
    public var hours: Double { Double(max(0, freeBytes)) / Double(bytesPerHour) }

    public var status: DoctorFinding.Status {
        hours < Self.problemHours ? .problem : hours < Self.warningHours ? .warning : .ok
    }

    /// "about 38 hours", "about 1.5 hours", "about 12 minutes", "no time at all".
    public var timeText: String {
        let minutes = Int((hours * 60).rounded(.down))
        if hours >= 10 { return "about \(Int(hours.rounded(.down))) hours" }
        // Rounded down, as time left is: 1.99 hours is "1.9", not "2.0".
        if hours >= 1 { return "about \(String(format1: (hours * 10).rounded(.down) / 10)) hours" }
        if minutes >= 1 { return "about \(minutes) minute\(minutes == 1 ? "" : "s")" }
        return "less than a minute"
    }

    /// "4.2 GB", "512.0 MB", in powers of 1000 as disks are sold.
    public static func bytesText(_ bytes: Int64) -> String {
        let value = Double(max(0, bytes))
        if value >= 1e9 { return "\(String(format1: value / 1e9)) GB" }
        return "\(String(format1: value / 1e6)) MB"
    }

    /// The finding for the disk that holds `path` (the data folder).
    public func finding(path: String) -> DoctorFinding {
        let found = "\(Self.bytesText(freeBytes)) free for \(path): \(timeText) of recording in \(format)"
        switch status {
        case .ok:
            return DoctorFinding(.disk, .ok, found)
        case .warning:
            return DoctorFinding(
                .disk, .warning, found,
                advice: "Recording stops when the disk is full: free some space before a long session (files you no longer need, or the recordings of articles already delivered).")
        case .problem:
            return DoctorFinding(
                .disk, .problem, "the disk is full: " + found,
                advice: "Free some space on that disk before recording: move or delete files you no longer need, or the recordings of articles already delivered.")
        }
    }
}
