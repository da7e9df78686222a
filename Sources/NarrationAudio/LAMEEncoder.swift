internal import CLame
import Glibc
import NarrationCore

/// One LAME encoder: the single owner of its `lame_t`, configured the one way narrate encodes
/// MP3 (the article's rate and channels, no resampling, LAME's default algorithm quality). Used
/// by `MP3Writer` for one stream and by `ParallelMP3Writer` once per segment.
final class LAMEEncoder {
    let format: AudioFormat
    /// Names the file being made, in errors.
    let path: String
    private let lame: OpaquePointer
    private var output: [UInt8] = []

    /// - Parameter writesInfoTag: whether LAME reserves its first frame for the info
    ///   ("Xing/LAME") tag, which `infoTag()` then returns.
    /// - Throws: `usage` for encodings LAME cannot make gapless or refuses. The corresponding C
    ///   functions are `lame_init`, `lame_set_*` and `lame_init_params`.
    init(format: AudioFormat, encoding: MP3Encoding, writesInfoTag: Bool, path: String) throws(NarrationError) {
        try encoding.validate(for: format)
        self.format = format
        self.path = path
        guard let lame = lame_init() else {
            throw NarrationError(.fileSystem, "Cannot start the MP3 encoder: out of memory.")
        }
        lame_set_in_samplerate(lame, CInt(format.sampleRate))
        lame_set_out_samplerate(lame, CInt(format.sampleRate))
        lame_set_num_channels(lame, CInt(format.channels))
        lame_set_mode(lame, format.channels == 1 ? MONO : JOINT_STEREO)
        switch encoding {
        case .constant(let kbps):
            lame_set_VBR(lame, vbr_off)
            lame_set_brate(lame, CInt(kbps))
        case .variable(let quality):
            lame_set_VBR(lame, vbr_default)
            lame_set_VBR_quality(lame, Float(quality))
        }
        lame_set_bWriteVbrTag(lame, writesInfoTag ? 1 : 0)
        lame_set_write_id3tag_automatic(lame, 0)
        // LAME's default algorithm quality (as ffmpeg and the lame tool use): quality 2 doubled
        // the encoding time for no audible gain on speech.
        guard LAMETables.writing({ lame_init_params(lame) }) >= 0 else {
            lame_close(lame)
            throw NarrationError(.usage, "The MP3 encoder refused \(format) at this bitrate.")
        }
        self.lame = lame
    }

    /// Encodes interleaved samples and hands `body` the MP3 bytes LAME made of them (often none:
    /// LAME buffers up to a frame and a half). The corresponding C functions are
    /// `lame_encode_buffer_int` and `lame_encode_buffer_interleaved_int`.
    func encode(
        _ samples: UnsafeBufferPointer<Int32>, _ body: (UnsafeRawBufferPointer) throws(NarrationError) -> Void
    ) throws(NarrationError) {
        let frames = samples.count / format.channels
        guard frames > 0 else { return }
        let capacity = frames * 5 / 4 + 7_200
        if output.count < capacity { output = Array(repeating: 0, count: capacity) }
        let produced: CInt = LAMETables.reading {
        if format.channels == 1 {
            // Mono: LAME reads the left channel only, straight from the caller's buffer.
            return output.withUnsafeMutableBufferPointer { out in
                lame_encode_buffer_int(lame, samples.baseAddress, samples.baseAddress, CInt(frames), out.baseAddress, CInt(capacity))
            }
        } else {
            return output.withUnsafeMutableBufferPointer { out in
                lame_encode_buffer_interleaved_int(lame, samples.baseAddress, CInt(frames), out.baseAddress, CInt(capacity))
            }
        }
        }
        guard produced >= 0 else { throw NarrationError(.fileSystem, "The MP3 encoder failed (\(produced)) while encoding \(path).") }
        try output.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[0..<Int(produced)]))) }
    }

    /// Encodes what LAME still holds, padded to a whole frame, and hands `body` the bytes. The
    /// corresponding C function is `lame_encode_flush`.
    func flush(_ body: (UnsafeRawBufferPointer) throws(NarrationError) -> Void) throws(NarrationError) {
        if output.count < 7_200 { output = Array(repeating: 0, count: 7_200) }
        let flushed = LAMETables.reading { output.withUnsafeMutableBufferPointer { lame_encode_flush(lame, $0.baseAddress, CInt($0.count)) } }
        guard flushed >= 0 else { throw NarrationError(.fileSystem, "The MP3 encoder failed (\(flushed)) while finishing \(path).") }
        try output.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[0..<Int(flushed)]))) }
    }

    /// The info tag frame describing what was encoded, after `flush`; empty when the encoder
    /// writes none. The corresponding C function is `lame_get_lametag_frame`.
    func infoTag() -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: 2_880)
        let length = tag.withUnsafeMutableBufferPointer { lame_get_lametag_frame(lame, $0.baseAddress, $0.count) }
        return length > 0 && length <= tag.count ? Array(tag[0..<length]) : []
    }

    deinit { lame_close(lame) }
}

/// LAME 3.100 fills process-wide tables (`pow43`, `adj43`, `pow20`, `ipow20` in quantize_pvt.c)
/// in every `lame_init_params`. It writes the same values each time, but writing them while
/// another encoder of the process reads them is a data race all the same; with encoders on
/// several threads (a parallel export, or two exports at once) setting up waits until no
/// encoder is encoding, and encoding waits for a set-up: a readers-writer lock, taken once per
/// block.
private enum LAMETables {
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        return lock
    }()

    static func reading<T>(_ body: () -> T) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }

    static func writing<T>(_ body: () -> T) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }
}
