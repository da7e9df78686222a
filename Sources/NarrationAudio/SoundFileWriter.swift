internal import CSndFile
import Glibc
public import NarrationCore

/// A WAV file being written: the single owner of its `SNDFILE` and file descriptor.
///
/// Made for crash safety: `checkpoint()` rewrites the header for the frames written so far and
/// forces data and header to disk, so that the file on disk is a valid WAV at every checkpoint.
/// Samples are left-justified `Int32`s (see `AudioFormat`); libsndfile keeps their top 16 or 24 bits.
public final class SoundFileWriter: @unchecked Sendable {
    public let path: String
    public let format: AudioFormat
    public private(set) var framesWritten: FrameCount = 0

    private var file: OpaquePointer?
    private let descriptor: CInt

    /// Creates a new WAV (or FLAC) file at `path`; fails if it exists. `tags`, if given, are
    /// written as RIFF INFO (WAV) or Vorbis comments (FLAC).
    /// - Throws: `diskFull`, or `fileSystem` naming the path and the reason.
    ///   The corresponding C functions are `open`, `sf_open_fd` and `sf_set_string`.
    public init(creating path: String, format: AudioFormat, container: ExportFormat = .wav, tags: ExportTags? = nil) throws(NarrationError) {
        precondition(container != .mp3, "MP3 files are written by MP3Writer")
        self.path = path
        self.format = format
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOSPC || code == EDQUOT ? soundFileError(nil, path: path, doing: "create", errno: code)
                : NarrationError(.fileSystem, "Cannot create \(path): \(String(cString: strerror(code))).")
        }
        // Held while the file is written and dropped by the kernel when this process ends, so that a
        // file left by a killed writer can be told from one being written (narrate's temporary files).
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        var info = SF_INFO()
        info.samplerate = CInt(format.sampleRate)
        info.channels = CInt(format.channels)
        info.format = format.wavFormatCode
        if container == .flac { info.format = (info.format & CInt(SF_FORMAT_SUBMASK)) | CInt(SF_FORMAT_FLAC) }
        guard let file = sf_open_fd(descriptor, Int32(SFM_WRITE), &info, 0) else {
            let error = soundFileError(nil, path: path, doing: "start writing", errno: errno)
            Glibc.close(descriptor)
            throw error
        }
        self.file = file
        self.descriptor = descriptor
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
