public import Foundation
public import NarrationAudio
public import NarrationCore

/// What punch-and-roll plays before it records: the seconds of the chunk just before the punch,
/// so that the narrator hears where they are and picks up in the same voice.
public struct PreRoll: Sendable {
    /// The chunk's file.
    public let file: URL
    /// The frames played, ending at the punch.
    public let frames: Range<FrameCount>
    public let format: AudioFormat

    /// Plays the frames through the playback device `name` and waits until they are heard.
    /// `shouldStop` is asked between blocks (a key pressed, a signal): playing then stops at once.
    /// - Returns: the frames written to the device.
    /// - Throws: the device's errors, the file's errors.
    public func play(device name: String, definitions: ALSADefinitions? = nil, shouldStop: () -> Bool = { false }) throws(NarrationError) -> FrameCount {
        guard !frames.isEmpty else { return 0 }
        return try play(on: try PlaybackDevice(name: name, format: format, definitions: definitions), shouldStop: shouldStop)
    }

    /// Plays the frames through `device` (opened in `format`), waits until they are heard, and
    /// closes it. `shouldStop` is asked between blocks: playing then stops at once.
    /// - Returns: the frames written to the device.
    public func play(on device: any PlaybackOutput, shouldStop: () -> Bool = { false }) throws(NarrationError) -> FrameCount {
        defer { try? device.close() }
        guard !frames.isEmpty else { return 0 }
        let reader = try SoundFileReader(path: file.path)
        defer { reader.close() }
        try reader.seek(to: frames.lowerBound)
        let channels = format.channels
        let blockFrames = device.periodFrames
        var block = [Int32](repeating: 0, count: blockFrames * channels)
        var played = 0
        while played < frames.count {
            if shouldStop() {
                device.stopNow()
                return played
            }
            let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                try reader.read(into: buffer, frames: min(blockFrames, frames.count - played))
            }
            guard read > 0 else { break }
            try block.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
                try device.write(UnsafeBufferPointer(rebasing: buffer[0..<(read * channels)]))
            }
            played += read
        }
        try device.drain()
        return played
    }
}

/// A punch-and-roll asked for: chunk `index`, at `seconds` into it, after `preRollSeconds` of it.
public struct PunchRequest: Sendable, Equatable {
    public static let defaultPreRollSeconds = 3.0

    public let index: ChunkIndex
    public let seconds: Double
    public let preRollSeconds: Double

    public init(index: ChunkIndex, seconds: Double, preRollSeconds: Double = Self.defaultPreRollSeconds) {
        self.index = index
        self.seconds = seconds
        self.preRollSeconds = preRollSeconds
    }
}
