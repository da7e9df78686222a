internal import CSndFile
import Glibc
public import NarrationCore

/// An audio file open for reading: the single owner of its `SNDFILE`.
///
/// Samples come out as left-justified `Int32`s (see `AudioFormat`), whatever the file's depth.
public final class SoundFileReader: @unchecked Sendable {
    public let path: String
    public let format: AudioFormat
    public let frames: FrameCount
    private var file: OpaquePointer?

    /// Opens `path`. The corresponding C function is `sf_open`.
    /// - Throws: `chunkFileMissing` if there is no file, `fileCorrupt` if libsndfile cannot read it.
    public init(path: String) throws(NarrationError) {
        self.path = path
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            if access(path, F_OK) != 0 {
                throw NarrationError(.chunkFileMissing, "The audio file \(path) is missing.")
            }
            throw NarrationError(.fileCorrupt, "Cannot read \(path): \(String(cString: sf_strerror(nil))).")
        }
        self.file = file
        let subtype = info.format & CInt(SF_FORMAT_SUBMASK)
        let bits = subtype == CInt(SF_FORMAT_PCM_24) ? 24 : subtype == CInt(SF_FORMAT_PCM_32) ? 32 : 16
        self.format = AudioFormat(sampleRate: Int(info.samplerate), channels: Int(info.channels), bitsPerSample: bits)
        self.frames = Int(info.frames)
    }

    /// Reads up to `frames` frames into `samples`.
    /// - Returns: frames read; 0 at the end. The corresponding C function is `sf_readf_int`.
    public func read(into samples: UnsafeMutableBufferPointer<Int32>, frames: FrameCount) throws(NarrationError) -> FrameCount {
        guard let file else { preconditionFailure("read after close") }
        precondition(samples.count >= frames * format.channels, "read needs room for the frames asked for")
        let read = sf_readf_int(file, samples.baseAddress, sf_count_t(frames))
        if read < frames, sf_error(file) != 0 {
            throw NarrationError(.fileCorrupt, "Cannot read \(path): \(String(cString: sf_strerror(file))).")
        }
        return Int(read)
    }

    /// Moves to frame `frame` (sample-exact for WAV). The corresponding C function is `sf_seek`.
    public func seek(to frame: FrameCount) throws(NarrationError) {
        guard let file else { preconditionFailure("seek after close") }
        guard sf_seek(file, sf_count_t(frame), SEEK_SET) == sf_count_t(frame) else {
            throw NarrationError(.fileCorrupt, "Cannot seek to frame \(frame) of \(path): \(String(cString: sf_strerror(file))).")
        }
    }

    /// Reads the whole file (for tests and short files).
    public func readAll() throws(NarrationError) -> [Int32] {
        var samples = [Int32](repeating: 0, count: frames * format.channels)
        var total = 0
        try samples.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
            while total < frames {
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[(total * format.channels)...])
                let read = try self.read(into: slice, frames: frames - total)
                if read == 0 { break }
                total += read
            }
        }
        return Array(samples[0..<(total * format.channels)])
    }

    /// Closes the file. The corresponding C function is `sf_close`.
    public func close() {
        if let file { sf_close(file) }
        file = nil
    }

    deinit { close() }
}
