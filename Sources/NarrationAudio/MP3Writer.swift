internal import CLame
import Glibc
public import NarrationCore

/// An MP3 file being encoded by LAME: the single owner of its `lame_t` and file descriptor.
///
/// The file is the ID3v2.4 tag, then one LAME stream over everything written, so that there is
/// no gap at chunk seams. LAME's first frame is a placeholder for its info ("Xing/LAME") tag;
/// `close()` writes the real one over it, with the encoder delay and padding, so that decoders
/// return exactly the frames written.
public final class MP3Writer: AudioSink, @unchecked Sendable {
    public let path: String
    public let format: AudioFormat
    private var lame: OpaquePointer?
    private let descriptor: CInt
    private let tagLength: Int
    private var output: [UInt8]

    /// Creates `path` (which must not exist) and starts encoding.
    /// - Throws: `usage` for encodings LAME cannot make gapless; `fileSystem`, `diskFull`.
    ///   The corresponding C functions are `lame_init`, `lame_set_*` and `lame_init_params`.
    public init(creating path: String, format: AudioFormat, encoding: MP3Encoding, tag: ID3Tag) throws(NarrationError) {
        try encoding.validate(for: format)
        self.path = path
        self.format = format
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw NarrationError(.fileSystem, "Cannot create \(path): \(String(cString: strerror(errno))).")
        }
        // Held while the file is written and dropped by the kernel when this process ends, so that a
        // file left by a killed writer can be told from one being written (narrate's temporary files).
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        self.descriptor = descriptor
        let tagBytes = tag.bytes
        tagLength = tagBytes.count
        output = []
        guard let lame = lame_init() else {
            Glibc.close(descriptor)
            unlink(path)
            throw NarrationError(.fileSystem, "Cannot start the MP3 encoder: out of memory.")
        }
        self.lame = lame
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
        lame_set_bWriteVbrTag(lame, 1)
        lame_set_write_id3tag_automatic(lame, 0)
        // LAME's default algorithm quality (as ffmpeg and the lame tool use): quality 2 doubled
        // the encoding time for no audible gain on speech.
        do throws(NarrationError) {
            guard lame_init_params(lame) >= 0 else {
                throw NarrationError(.usage, "The MP3 encoder refused \(format) at this bitrate.")
            }
            try writeAll(tagBytes, count: tagBytes.count)
        } catch {
            lame_close(lame)
            self.lame = nil
            Glibc.close(descriptor)
            unlink(path)
            throw error
        }
    }

    /// Encodes interleaved samples. The corresponding C function is `lame_encode_buffer_int`.
    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        guard let lame else { preconditionFailure("write after close") }
        let frames = samples.count / format.channels
        guard frames > 0 else { return }
        let capacity = frames * 5 / 4 + 7_200
        if output.count < capacity { output = Array(repeating: 0, count: capacity) }
        let produced: CInt
        if format.channels == 1 {
            // Mono: LAME reads the left channel only, straight from the caller's buffer.
            produced = output.withUnsafeMutableBufferPointer { out in
                lame_encode_buffer_int(lame, samples.baseAddress, samples.baseAddress, CInt(frames), out.baseAddress, CInt(capacity))
            }
        } else {
            produced = output.withUnsafeMutableBufferPointer { out in
                lame_encode_buffer_interleaved_int(lame, samples.baseAddress, CInt(frames), out.baseAddress, CInt(capacity))
            }
        }
        guard produced >= 0 else { throw NarrationError(.fileSystem, "The MP3 encoder failed (\(produced)) while encoding \(path).") }
        try writeAll(output, count: Int(produced))
    }

    /// Flushes the encoder, writes the info tag over the placeholder frame, fsyncs and closes.
    /// The corresponding C functions are `lame_encode_flush`, `lame_get_lametag_frame` and `lame_close`.
    public func close() throws(NarrationError) {
        guard let lame else { return }
        self.lame = nil
        defer {
            lame_close(lame)
            Glibc.close(descriptor)
        }
        if output.count < 7_200 { output = Array(repeating: 0, count: 7_200) }
        let flushed = output.withUnsafeMutableBufferPointer { lame_encode_flush(lame, $0.baseAddress, CInt($0.count)) }
        guard flushed >= 0 else { throw NarrationError(.fileSystem, "The MP3 encoder failed (\(flushed)) while finishing \(path).") }
        try writeAll(output, count: Int(flushed))
        var infoTag = [UInt8](repeating: 0, count: 2_880)
        let infoLength = infoTag.withUnsafeMutableBufferPointer { lame_get_lametag_frame(lame, $0.baseAddress, $0.count) }
        if infoLength > 0 && infoLength <= infoTag.count {
            let written = infoTag.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, infoLength, off_t(tagLength)) }
            guard written == infoLength else { throw failure("write the MP3 info tag to") }
        }
        guard fsync(descriptor) == 0 else { throw failure("save") }
    }

    /// Writes the first `count` bytes of `bytes`.
    private func writeAll(_ bytes: [UInt8], count: Int) throws(NarrationError) {
        var offset = 0
        while offset < count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure("write") }
            offset += written
        }
    }

    private func failure(_ action: String) -> NarrationError {
        soundFileError(nil, path: path, doing: action, errno: errno == 0 ? EIO : errno)
    }

    deinit {
        if let lame {
            lame_close(lame)
            Glibc.close(descriptor)
        }
    }
}
