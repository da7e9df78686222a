import Foundation
import NarrationAudio
import NarrationCore

/// Operations on one take's WAV file that recovery and the recorder share.
enum TakeFile {
    /// What `repair` did.
    struct Repair {
        /// The whole frames the file now holds.
        let frames: FrameCount
        /// True when the header was damaged and has been written anew from the article's format.
        let headerRebuilt: Bool
    }

    /// Makes a partial take whole: writes its header for exactly the whole frames the file
    /// holds (see `TakeHeader`), dropping a trailing partial frame; the samples are not touched.
    ///
    /// A header whose fixed fields are not the recorder's (a torn write, a bad sector) is
    /// reported as rebuilt, and its bytes are first copied to `damagedHeaderCopy` when there is
    /// room, for whoever wants to look.
    /// A symbolic link (or anything but a regular file with one name) at `url` is refused, its
    /// target untouched.
    /// - Throws: `fileSystem` when the file cannot be read or written; `foreignFile`.
    static func repair(_ url: URL, format: AudioFormat, damagedHeaderCopy: URL? = nil) throws(NarrationError) -> Repair {
        func failure(_ verb: String, _ error: SystemError) -> NarrationError {
            if error.isForeignFile, let refusal = FileSystem.foreignFile(at: url) { return refusal }
            return NarrationError(.fileSystem, "Cannot \(verb) \(url.path): \(error.reason).", subject: .file(url.path), cause: error.cause)
        }
        let file: OpenFile
        let found: [UInt8]
        let size: Int
        do throws(SystemError) {
            file = try OpenFile(url.path, .readWrite)
        } catch {
            throw failure("open", error)
        }
        do throws(SystemError) {
            found = try file.read(upTo: TakeHeader.size, at: 0)
            size = try file.status().size
        } catch {
            throw failure("read", error)
        }
        let frames = TakeHeader.frames(inFileOfSize: size, format: format)
        let intact = TakeHeader.isIntact(found, format: format)
        if !intact {
            guard frames > 0 else { return Repair(frames: 0, headerRebuilt: false) }
            if let damagedHeaderCopy { try? FileSystem.writeAtomically(Data(found), to: damagedHeaderCopy) }
        }
        let header = TakeHeader.bytes(for: format, frames: frames)
        do throws(SystemError) {
            try file.write(header, at: 0)
            try file.truncate(to: TakeHeader.fileLength(frames: frames, format: format))
            try file.sync()
        } catch {
            throw failure("repair", error)
        }
        return Repair(frames: frames, headerRebuilt: !intact)
    }

    /// The frame count, peak and RMS of a finished take, read back from its file.
    static func measure(_ url: URL) throws(NarrationError) -> (frames: FrameCount, peak: Decibels, rms: Decibels) {
        let reader = try SoundFileReader(path: url.path)
        defer { reader.close() }
        var levels = LevelAccumulator(channels: reader.format.channels)
        let blockFrames = 16_384
        var block = [Int32](repeating: 0, count: blockFrames * reader.format.channels)
        while true {
            let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                try reader.read(into: buffer, frames: blockFrames)
            }
            if read == 0 { break }
            block.withUnsafeBufferPointer { levels.add(UnsafeBufferPointer(rebasing: $0[0..<(read * reader.format.channels)])) }
        }
        return (levels.frames, levels.peak, levels.rms)
    }
}
