internal import CSndFile
import Glibc
public import NarrationCore

/// A WAV file being written (or a FLAC, Ogg Vorbis or Ogg Opus one): the single owner of its
/// `SNDFILE` and file descriptor.
///
/// Made for crash safety: `checkpoint()` rewrites the header for the frames written so far and
/// forces data and header to disk, so that the file on disk is a valid WAV at every checkpoint.
/// Samples are left-justified `Int32`s (see `AudioFormat`); libsndfile keeps their top 16 or 24
/// bits, and scales them by 1/2³¹ for the Vorbis and Opus encoders.
///
/// The lossy encodings are chosen for speech:
/// - Ogg Vorbis at quality 0.3 (`oggenc -q 3`, oggenc's own default; libsndfile's is 0.4), VBR.
///   Speech is transparent there, and mono speech comes out far below the nominal 112 kbit/s of
///   stereo music: 75 kbit/s for 79 s of espeak-ng speech at 44.1 kHz (FLAC: 268, MP3: 128).
/// - Ogg Opus at 32 kbit/s per channel, VBR (libopus's default mode). Opus gives full-band
///   (20 kHz) speech from about 24 kbit/s mono; 32 leaves room for sibilants and room tone, at a
///   quarter of an MP3's 128 (the same speech: 32.9 kbit/s). libsndfile sets its rate through
///   `SFC_SET_COMPRESSION_LEVEL`: `bitrate = ((1 − level) × 250000 + 6000) × channels`.
/// Both kept the speech's loudness within 0.3 LU (−20.1 LUFS: Vorbis −20.2, Opus −20.4).
/// Opus files take only 8, 12, 16, 24 or 48 kHz (libsndfile refuses others): convert first (see
/// `SampleRateConverter`). Exports write Ogg Opus with `OpusWriter` instead (libopusenc), which
/// takes chapters as comments.
public final class SoundFileWriter: @unchecked Sendable {
    public let path: String
    public let format: AudioFormat
    public private(set) var framesWritten: FrameCount = 0

    private var file: OpaquePointer?
    private let descriptor: CInt

    /// Vorbis quality 0.3 (see above) as libsndfile's compression level, 1 − quality.
    static let vorbisCompressionLevel = 0.7
    /// 32 kbit/s per channel (see above): ((1 − level) × 250000 + 6000) = 32000, with half a bit
    /// per second to spare so that libsndfile's truncation to an integer does not make it 31999.
    static let opusCompressionLevel = 1 - 26_000.5 / 250_000

    /// Creates a new WAV, FLAC, Ogg Vorbis or Ogg Opus file at `path`; fails if anything is there
    /// (a symbolic link included: `foreignFile`).
    /// `tags`, if given, are written as RIFF INFO (WAV) or Vorbis comments (the others).
    /// - Throws: `diskFull`, or `fileSystem` naming the path and the reason (an Opus file at a
    ///   rate Opus does not take is a bug of the caller and traps).
    ///   The corresponding C functions are `open`, `sf_open_fd`, `sf_command` and `sf_set_string`.
    public init(creating path: String, format: AudioFormat, container: ExportFormat = .wav, tags: ExportTags? = nil) throws(NarrationError) {
        precondition(container != .mp3, "MP3 files are written by MP3Writer")
        precondition(container != .opus || ExportFormat.opusSampleRates.contains(format.sampleRate), "Opus takes 8, 12, 16, 24 or 48 kHz only")
        self.path = path
        self.format = format
        // Made by narrate, never through a symbolic link, and locked while it is written (see
        // `NewFile`); libsndfile gets the descriptor, as `sf_open` by path would follow a link.
        let descriptor = try NewFile.create(path)
        var info = SF_INFO()
        info.samplerate = CInt(format.sampleRate)
        info.channels = CInt(format.channels)
        info.format = format.wavFormatCode
        switch container {
        case .wav, .mp3: break
        case .flac: info.format = (info.format & CInt(SF_FORMAT_SUBMASK)) | CInt(SF_FORMAT_FLAC)
        case .ogg: info.format = CInt(SF_FORMAT_OGG) | CInt(SF_FORMAT_VORBIS)
        case .opus: info.format = CInt(SF_FORMAT_OGG) | CInt(SF_FORMAT_OPUS)
        }
        guard let file = sf_open_fd(descriptor, Int32(SFM_WRITE), &info, 0) else {
            let error = soundFileError(nil, path: path, doing: "start writing", errno: errno)
            Glibc.close(descriptor)
            throw error
        }
        self.file = file
        self.descriptor = descriptor
        if container == .ogg || container == .opus {
            // Before the first sample: Vorbis takes its quality only then.
            var level = container == .ogg ? Self.vorbisCompressionLevel : Self.opusCompressionLevel
            guard sf_command(file, CInt(SFC_SET_COMPRESSION_LEVEL), &level, CInt(MemoryLayout<Double>.size)) == CInt(SF_TRUE) else {
                throw soundFileError(file, path: path, doing: "set the \(container.name) quality of", errno: 0)
            }
        }
        if let tags {
            // libsndfile takes strings only before the first sample is written.
            let fields: [(Int, String)] = [
                (SF_STR_TITLE, tags.title), (SF_STR_ARTIST, tags.narrator), (SF_STR_ALBUM, tags.publication),
                (SF_STR_DATE, tags.date), (SF_STR_COMMENT, tags.comment), (SF_STR_GENRE, tags.genre),
            ]
            for (field, value) in fields where !value.isEmpty {
                sf_set_string(file, Int32(field), value)
            }
        }
    }

    /// Opens a WAV take that narrate wrote and checkpointed earlier (whose header `TakeFile.repair`
    /// has made to match its whole frames) to write on after its last frame: a take whose
    /// upload resumes after the server restarted. Never through a symbolic link.
    /// - Throws: `foreignFile`; `fileSystem` naming the path and the reason.
    ///   The corresponding C functions are `open`, `sf_open_fd` and `sf_seek`.
    public init(continuing path: String, format: AudioFormat) throws(NarrationError) {
        self.path = path
        self.format = format
        let descriptor = try NewFile.openExisting(path)
        var info = SF_INFO()
        guard let file = sf_open_fd(descriptor, Int32(SFM_RDWR), &info, 0) else {
            let error = soundFileError(nil, path: path, doing: "open", errno: errno)
            Glibc.close(descriptor)
            throw error
        }
        guard Int(info.samplerate) == format.sampleRate, Int(info.channels) == format.channels, info.format == format.wavFormatCode,
            sf_seek(file, 0, SEEK_END | Int32(SFM_WRITE)) == info.frames
        else {
            sf_close(file)
            Glibc.close(descriptor)
            throw NarrationError(.fileCorrupt, "\(path) is not the take narrate began (its format changed), so it was left as it is.", subject: .file(path))
        }
        self.file = file
        self.descriptor = descriptor
        framesWritten = FrameCount(info.frames)
    }

    /// Appends interleaved samples (whole frames).
    /// - Throws: `diskFull` when the disk fills; the frames written before stay in the file.
    ///   The corresponding C function is `sf_write_int`.
    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        guard let file else { preconditionFailure("write after close") }
        precondition(samples.count % format.channels == 0, "samples must be whole frames")
        errno = 0
        let written = sf_write_int(file, samples.baseAddress, sf_count_t(samples.count))
        framesWritten += Int(written) / format.channels
        if Int(written) != samples.count {
            throw soundFileError(file, path: path, doing: "write audio to", errno: errno == 0 ? EIO : errno)
        }
    }

    /// Makes the file on disk a valid WAV of everything written so far: rewrites the header, then
    /// `fsync`s. The corresponding C functions are `sf_command(SFC_UPDATE_HEADER_NOW)` and `fsync`.
    public func checkpoint() throws(NarrationError) {
        guard let file else { preconditionFailure("checkpoint after close") }
        sf_command(file, CInt(SFC_UPDATE_HEADER_NOW), nil, 0)
        guard fsync(descriptor) == 0 else {
            throw soundFileError(file, path: path, doing: "save", errno: errno)
        }
    }

    /// Writes the final header, forces the file to disk and closes it.
    /// The corresponding C functions are `sf_close`, `fsync` and `close`.
    public func close() throws(NarrationError) {
        guard let file else { return }
        self.file = nil
        let result = sf_close(file)
        let synced = fsync(descriptor) == 0 ? 0 : errno
        Glibc.close(descriptor)
        if result != 0 || synced != 0 {
            throw soundFileError(nil, path: path, doing: "finish", errno: synced == 0 ? EIO : synced)
        }
    }

    /// A writer dropped without `close()` (its owner failed on the way) still writes its header
    /// and frees the file; it never traps, which would lose a take being recorded beside it.
    deinit {
        if let file {
            sf_close(file)
            Glibc.close(descriptor)
        }
    }
}
