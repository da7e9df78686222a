import Foundation
import Glibc
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
    /// - Throws: `fileSystem` when the file cannot be read or written.
    static func repair(_ url: URL, format: AudioFormat, damagedHeaderCopy: URL? = nil) throws(NarrationError) -> Repair {
        let descriptor = open(url.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw NarrationError(.fileSystem, "Cannot open \(url.path): \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        var found = [UInt8](repeating: 0, count: TakeHeader.size)
        let foundBytes = found.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard foundBytes >= 0 else {
            throw NarrationError(.fileSystem, "Cannot read \(url.path): \(String(cString: strerror(errno))).")
        }
        found = Array(found[0..<foundBytes])
        var info = stat()
        fstat(descriptor, &info)
        let frames = TakeHeader.frames(inFileOfSize: Int(info.st_size), format: format)
        let intact = TakeHeader.isIntact(found, format: format)
        if !intact {
            guard frames > 0 else { return Repair(frames: 0, headerRebuilt: false) }
            if let damagedHeaderCopy { try? FileSystem.writeAtomically(Data(found), to: damagedHeaderCopy) }
        }
        let header = TakeHeader.bytes(for: format, frames: frames)
        let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == header.count,
            ftruncate(descriptor, off_t(TakeHeader.fileLength(frames: frames, format: format))) == 0,
            fsync(descriptor) == 0
        else {
            throw NarrationError(.fileSystem, "Cannot repair \(url.path): \(String(cString: strerror(errno))).")
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
