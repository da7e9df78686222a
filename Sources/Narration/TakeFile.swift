import Foundation
import Glibc
import NarrationAudio
import NarrationCore

/// Operations on one take's WAV file that recovery and the recorder share.
enum TakeFile {
    /// Makes a partial take whole: reads its header, then rewrites the sizes so that it declares
    /// exactly the whole frames the file holds, dropping a trailing partial frame.
    /// - Returns: the frames the file now holds.
    /// - Throws: `fileCorrupt` when the header is not a PCM WAV header.
    static func repair(_ url: URL) throws(NarrationError) -> FrameCount {
        let descriptor = open(url.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw NarrationError(.fileSystem, "Cannot open \(url.path): \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 4096)
        let headerBytes = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard headerBytes >= 0 else {
            throw NarrationError(.fileSystem, "Cannot read \(url.path): \(String(cString: strerror(errno))).")
        }
        let layout = try WAVLayout.parse(Array(header[0..<headerBytes]), name: url.path)
        var info = stat()
        fstat(descriptor, &info)
        let repair = layout.repair(frames: layout.frames(inFileOfSize: Int(info.st_size)))
        let patches = [
            (WAVRepair.riffSizeOffset, WAVRepair.littleEndian(repair.riffSize)),
            (repair.dataSizeOffset, WAVRepair.littleEndian(repair.dataSize)),
        ]
        for (offset, bytes) in patches {
            let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 4, off_t(offset)) }
            guard written == 4 else {
                throw NarrationError(.fileSystem, "Cannot repair the header of \(url.path): \(String(cString: strerror(errno))).")
            }
        }
        guard ftruncate(descriptor, off_t(repair.fileLength)) == 0, fsync(descriptor) == 0 else {
            throw NarrationError(.fileSystem, "Cannot repair \(url.path): \(String(cString: strerror(errno))).")
        }
        return repair.frames
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
