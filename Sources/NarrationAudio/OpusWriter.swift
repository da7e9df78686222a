internal import COpusEnc
import Glibc
public import NarrationCore

/// An Ogg Opus file being encoded by libopusenc: the single owner of its `OggOpusEnc` and its
/// file descriptor.
///
/// Why libopusenc and not libsndfile: libsndfile writes only its fixed set of tags (title,
/// artist, album, …), so an Opus file made by it cannot carry chapters. libopusenc takes any
/// Vorbis comment before the first page, so the tags and the chapters (`CHAPTER001=…`, see
/// `VorbisComments`) are in the file from the start, in one pass.
///
/// Samples come in at 48 kHz only, Opus's own rate: an article at another rate is converted on
/// the way by libsoxr (`ResamplingSink`), not by libopusenc. libopusenc would resample with the
/// Speex resampler at its quality 5 (a shorter filter than libsoxr's 20-bit high quality, with
/// more aliasing near 20 kHz); libsoxr is the converter every other export uses, its delay is
/// compensated and its length is `round(frames × 48000 / rate)`, which the tests hold it to. At
/// 48 kHz libopusenc does no resampling of its own: the header's pre-skip is the encoder's
/// look-ahead and the last page's granule position is pre-skip + frames written, so a decoder
/// that honours both (ffmpeg, opusdec, libsndfile) gives back exactly the frames written, in
/// time. The header's input rate says 48 kHz.
///
/// The encoder is told the signal is voice (`OPUS_SIGNAL_VOICE`) and given a bitrate (see
/// `OpusBitrate`); it stays in libopus's default VBR mode. Samples are left-justified `Int32`s
/// (see `AudioFormat`), fed as floats scaled by 1/2³¹, so a 24-bit article keeps its depth
/// into the encoder.
public final class OpusWriter: AudioSink, @unchecked Sendable {
    /// The only rate the writer takes.
    public static let sampleRate = 48_000

    public let path: String
    public let format: AudioFormat
    public private(set) var framesWritten: FrameCount = 0

    private var encoder: OpaquePointer?
    private let output: Output
    private var scratch: [Float] = []

    /// Where libopusenc's pages go: our descriptor, and the first system error a write met (the
    /// callback can only say "failed").
    private final class Output {
        let descriptor: CInt
        var failure: CInt = 0

        init(descriptor: CInt) { self.descriptor = descriptor }

        /// Writes all of `bytes`; false, with `failure` set, if the system refused. A failure is
        /// sticky: libopusenc ignores the callback's answer and goes on with later pages, so once
        /// a write failed nothing more is written and `check` reports it whatever libopusenc says.
        func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard failure == 0 else { return false }
            guard let base = bytes.baseAddress else { return true }
            var done = 0
            while done < bytes.count {
                let written = Glibc.write(descriptor, base + done, bytes.count - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return false
                }
                if written == 0 {  // no progress and no error: a full device that says nothing
                    failure = ENOSPC
                    return false
                }
                done += written
            }
            return true
        }
    }

    /// The write callback: a C function pointer, so it captures nothing and finds its `Output`
    /// through `user_data`. libopusenc wants 0 for success, 1 for failure.
    private static let writePage: ope_write_func = { userData, pointer, length in
        let output = Unmanaged<Output>.fromOpaque(userData!).takeUnretainedValue()
        return output.write(UnsafeRawBufferPointer(start: pointer, count: Int(length))) ? 0 : 1
    }

    /// The close callback: the descriptor is ours (closed after `fsync` in `close()`).
    private static let closeStream: ope_close_func = { _ in 0 }

    /// Creates `path` (which must not exist) and starts encoding.
    /// - Parameters:
    ///   - format: the samples' format; its rate must be 48 kHz (a caller's bug otherwise: it traps).
    ///   - comments: the Vorbis comments (tags and chapters), written in the header.
    ///   - kbps: the bitrate in kbit/s, within `OpusBitrate.range` (checked by the caller: a value
    ///     outside traps).
    /// - Throws: `diskFull`, or `fileSystem` naming the path and the reason. The corresponding C
    ///   functions are `open`, `ope_comments_create`, `ope_comments_add`,
    ///   `ope_encoder_create_callbacks` and `ope_encoder_ctl` (`OPUS_SET_BITRATE`, `OPUS_SET_SIGNAL`).
    public init(creating path: String, format: AudioFormat, comments: VorbisComments, kbps: Int) throws(NarrationError) {
        precondition(format.sampleRate == Self.sampleRate, "OpusWriter takes 48 kHz; convert first (ResamplingSink)")
        precondition(OpusBitrate.range.contains(kbps), "an Opus bitrate of \(kbps) kbit/s is outside \(OpusBitrate.range)")
        self.path = path
        self.format = format
        let descriptor = try NewFile.create(path)
        output = Output(descriptor: descriptor)

        // Comments are copied into the encoder's header when it is created: a short-lived object.
        guard let list = ope_comments_create() else { preconditionFailure("libopusenc could not allocate comments") }
        defer { ope_comments_destroy(list) }
        for field in comments.fields {
            // Fails only without memory, or for a name with "=" (ours are ASCII without one).
            precondition(ope_comments_add(list, field.name, field.value) == OPE_OK, "libopusenc refused the comment \(field.name)")
        }
        var callbacks = OpusEncCallbacks(write: Self.writePage, close: Self.closeStream)
        var error: CInt = OPE_OK
        let userData = Unmanaged.passUnretained(output).toOpaque()
        let made = ope_encoder_create_callbacks(&callbacks, userData, list, opus_int32(format.sampleRate), CInt(format.channels), 0, &error)
        guard let made, error == OPE_OK else {
            if let made { ope_encoder_destroy(made) }
            Glibc.close(descriptor)
            throw NarrationError(.fileSystem, "Cannot start writing Ogg Opus to \(path): \(String(cString: ope_strerror(error))).")
        }
        encoder = made
        do throws(NarrationError) {
            try check(narrate_ope_set_bitrate(made, opus_int32(kbps * 1_000)), doing: "set the bitrate of")
            try check(narrate_ope_set_signal(made, OPUS_SIGNAL_VOICE), doing: "set the signal type of")
        } catch {
            ope_encoder_destroy(made)
            encoder = nil
            Glibc.close(descriptor)
            throw error
        }
    }

    /// Encodes interleaved samples (whole frames). libopusenc writes a page when it has one, so
    /// a full disk shows here or in `close()`.
    /// - Throws: `diskFull` when the disk fills, `fileSystem` for another failure.
    ///   The corresponding C function is `ope_encoder_write_float`.
    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        guard let encoder else { preconditionFailure("write after close") }
        precondition(samples.count % format.channels == 0, "samples must be whole frames")
        guard !samples.isEmpty else { return }
        if scratch.count < samples.count { scratch = Array(repeating: 0, count: samples.count) }
        let frames = samples.count / format.channels
        let scale = Float(1) / Float(1 << 31)
        let code = scratch.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<samples.count { buffer[index] = Float(samples[index]) * scale }
            return ope_encoder_write_float(encoder, buffer.baseAddress, CInt(frames))
        }
        try check(code, doing: "write audio to")
        framesWritten += frames
    }

    /// Encodes what libopusenc still holds, writes the last page (its granule position ends the
    /// stream at the last frame written), forces the file to disk and closes it.
    /// The corresponding C functions are `ope_encoder_drain`, `ope_encoder_destroy`, `fsync` and `close`.
    public func close() throws(NarrationError) {
        guard let encoder else { return }
        self.encoder = nil
        let drained = ope_encoder_drain(encoder)
        var failure: NarrationError?
        do throws(NarrationError) { try check(drained, doing: "finish") } catch { failure = error }
        ope_encoder_destroy(encoder)
        let synced = fsync(output.descriptor) == 0 ? 0 : errno
        Glibc.close(output.descriptor)
        if let failure { throw failure }
        if synced != 0 {
            throw diskFullError(path: path, errno: synced) ?? NarrationError(.fileSystem, "Cannot save \(path): \(String(cString: strerror(synced))).")
        }
    }

    /// A writer dropped without `close()` (its owner failed on the way) frees the encoder and the
    /// descriptor; it never traps. The exporter then removes the temporary file.
    deinit {
        if let encoder {
            ope_encoder_destroy(encoder)
            Glibc.close(output.descriptor)
        }
    }

    /// The one funnel for libopusenc results: OK with every page written passes; a failed write is the system's error
    /// (a full disk becomes `diskFull`); anything else is libopusenc's own words.
    private func check(_ code: CInt, doing action: String) throws(NarrationError) {
        // A page the system refused is a failure even when libopusenc says OK (it ignores the
        // write callback's answer).
        guard code != OPE_OK || output.failure != 0 else { return }
        if output.failure != 0 {
            throw diskFullError(path: path, errno: output.failure)
                ?? NarrationError(.fileSystem, "Cannot \(action) \(path): \(String(cString: strerror(output.failure))).")
        }
        throw NarrationError(.fileSystem, "Cannot \(action) \(path): \(String(cString: ope_strerror(code))).")
    }
}
