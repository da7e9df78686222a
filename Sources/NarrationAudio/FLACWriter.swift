internal import CFLAC
import Glibc
public import NarrationCore

/// A FLAC file being encoded by libFLAC: the single owner of its `FLAC__StreamEncoder`, its
/// metadata blocks and its file descriptor.
///
/// Why libFLAC and not libsndfile: libsndfile writes only its fixed set of tags (title, artist,
/// album, …) and no other Vorbis comment, so chapters (`CHAPTER001=…`, see `VorbisComments`)
/// could only be added by editing the finished file with libFLAC's metadata interface, which
/// rewrites the whole file into a temporary file of its own beside it when the comments outgrow
/// the padding (libsndfile leaves none). Writing the file with libFLAC's encoder puts every
/// comment in place from the start: one pass, no second copy, and the file still appears at its
/// final name only when complete (the exporter writes it under a temporary name and renames it).
///
/// The stream: STREAMINFO (libFLAC fills in the length and MD5 when it finishes), the Vorbis
/// comments, a seek table with a point every 10 s (filled in while encoding, so players seek to a
/// chapter without reading the file from the start), and 4 KiB of padding so that a tag editor
/// can change the tags without rewriting the audio. Compression level 5, libFLAC's and
/// libsndfile's default. Samples are left-justified `Int32`s (see `AudioFormat`); FLAC keeps
/// their top 16 or 24 bits, so the file decodes to exactly the samples written.
public final class FLACWriter: AudioSink, @unchecked Sendable {
    public let path: String
    public let format: AudioFormat
    public private(set) var framesWritten: FrameCount = 0

    private var encoder: UnsafeMutablePointer<FLAC__StreamEncoder>?
    private let blocks: UnsafeMutablePointer<UnsafeMutablePointer<FLAC__StreamMetadata>?>
    private let blockCount: Int
    /// Ours, for `flock` and `fsync`; libFLAC writes through a `FILE` on a duplicate of it, which
    /// it closes when it finishes.
    private let descriptor: CInt
    private var scratch: [Int32] = []

    /// Creates `path` (which must not exist) and starts encoding.
    /// - Parameter comments: the Vorbis comments (tags and chapters).
    /// - Parameter expectedFrames: how long the file will be, for the seek table's points.
    /// - Throws: `diskFull`, or `fileSystem` naming the path and the reason. The corresponding C
    ///   functions are `open`, `FLAC__stream_encoder_new`, `FLAC__stream_encoder_set_*`,
    ///   `FLAC__metadata_object_*` and `FLAC__stream_encoder_init_FILE`.
    public init(creating path: String, format: AudioFormat, comments: VorbisComments, expectedFrames: FrameCount) throws(NarrationError) {
        self.path = path
        self.format = format
        let descriptor = try NewFile.create(path)
        self.descriptor = descriptor

        // Metadata objects fail only when memory runs out: a trap, like any allocation.
        guard let comment = FLAC__metadata_object_new(FLAC__METADATA_TYPE_VORBIS_COMMENT),
              let seekTable = FLAC__metadata_object_new(FLAC__METADATA_TYPE_SEEKTABLE),
              let padding = FLAC__metadata_object_new(FLAC__METADATA_TYPE_PADDING)
        else { preconditionFailure("libFLAC could not allocate metadata") }
        for field in comments.fields {
            var entry = FLAC__StreamMetadata_VorbisComment_Entry()
            let made = FLAC__metadata_object_vorbiscomment_entry_from_name_value_pair(&entry, field.name, field.value) != 0
                && FLAC__metadata_object_vorbiscomment_append_comment(comment, entry, 0) != 0
            precondition(made, "libFLAC refused the comment \(field.name)")  // names are ours: ASCII without "="
        }
        if expectedFrames > 0 {
            let spaced = FLAC__metadata_object_seektable_template_append_spaced_points_by_samples(
                seekTable, UInt32(format.sampleRate * 10), FLAC__uint64(expectedFrames)) != 0
                && FLAC__metadata_object_seektable_template_sort(seekTable, 1) != 0
            precondition(spaced, "libFLAC could not make a seek table")
        }
        padding.pointee.length = 4_096
        let list: [UnsafeMutablePointer<FLAC__StreamMetadata>] = expectedFrames > 0 ? [comment, seekTable, padding] : [comment, padding]
        if expectedFrames <= 0 { FLAC__metadata_object_delete(seekTable) }
        blockCount = list.count
        blocks = .allocate(capacity: list.count)
        for (index, block) in list.enumerated() { blocks[index] = block }

        guard let encoder = FLAC__stream_encoder_new() else { preconditionFailure("libFLAC could not allocate an encoder") }
        self.encoder = encoder
        let configured = FLAC__stream_encoder_set_channels(encoder, UInt32(format.channels)) != 0
            && FLAC__stream_encoder_set_bits_per_sample(encoder, UInt32(format.bitsPerSample)) != 0
            && FLAC__stream_encoder_set_sample_rate(encoder, UInt32(format.sampleRate)) != 0
            && FLAC__stream_encoder_set_compression_level(encoder, 5) != 0
            && FLAC__stream_encoder_set_total_samples_estimate(encoder, FLAC__uint64(max(0, expectedFrames))) != 0
            && FLAC__stream_encoder_set_metadata(encoder, blocks, UInt32(list.count)) != 0
        precondition(configured, "libFLAC refused a setting before its encoder started")  // only after init can they fail

        let copy = dup(descriptor)
        guard copy >= 0, let file = fdopen(copy, "w+b") else {
            let code = errno
            if copy >= 0 { Glibc.close(copy) }
            release()
            Glibc.close(descriptor)
            throw NarrationError(.fileSystem, "Cannot write to \(path): \(String(cString: strerror(code))).")
        }
        let status = FLAC__stream_encoder_init_FILE(encoder, file, nil, nil)
        guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
            let reason = String(cString: narrate_flac_init_status(status))
            let code = errno
            // A failed init (a full disk when the header is written) leaves the FILE with the
            // encoder, whose deletion closes it: closing it here too would free it twice. Only
            // an encoder that never took the file leaves it to us.
            if FLAC__stream_encoder_get_state(encoder) == FLAC__STREAM_ENCODER_UNINITIALIZED { fclose(file) }
            release()
            Glibc.close(descriptor)
            throw diskFullError(path: path, errno: code) ?? NarrationError(.fileSystem, "Cannot start writing FLAC to \(path): \(reason).")
        }
    }

    /// Encodes interleaved samples (whole frames).
    /// - Throws: `diskFull` when the disk fills, `fileSystem` for another failure.
    ///   The corresponding C function is `FLAC__stream_encoder_process_interleaved`.
    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        guard let encoder else { preconditionFailure("write after close") }
        precondition(samples.count % format.channels == 0, "samples must be whole frames")
        guard !samples.isEmpty else { return }
        let shift = Int32(32 - format.bitsPerSample)
        if scratch.count < samples.count { scratch = Array(repeating: 0, count: samples.count) }
        let frames = samples.count / format.channels
        errno = 0
        let done = scratch.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<samples.count { buffer[index] = samples[index] >> shift }
            return FLAC__stream_encoder_process_interleaved(encoder, buffer.baseAddress, UInt32(frames)) != 0
        }
        guard done else { throw failure(encoder, doing: "write audio to", errno: errno) }
        framesWritten += frames
    }

    /// Flushes the last frame, writes the final STREAMINFO and seek table, forces the file to
    /// disk and closes it. The corresponding C functions are `FLAC__stream_encoder_finish`,
    /// `fsync` and `close`.
    public func close() throws(NarrationError) {
        guard let encoder else { return }
        errno = 0
        let finished = FLAC__stream_encoder_finish(encoder) != 0
        let code = errno
        let error = finished ? nil : failure(encoder, doing: "finish", errno: code)
        release()
        let synced = fsync(descriptor) == 0 ? 0 : errno
        Glibc.close(descriptor)
        if let error { throw error }
        if synced != 0 {
            throw diskFullError(path: path, errno: synced) ?? NarrationError(.fileSystem, "Cannot save \(path): \(String(cString: strerror(synced))).")
        }
    }

    /// A writer dropped without `close()` (its owner failed on the way) frees the encoder and the
    /// file; it never traps. The exporter then removes the temporary file.
    deinit {
        if let encoder {
            _ = FLAC__stream_encoder_finish(encoder)
            release()
            Glibc.close(descriptor)
        }
    }

    /// Deletes the encoder and the metadata blocks (which libFLAC reads until it finishes).
    private func release() {
        if let encoder { FLAC__stream_encoder_delete(encoder) }
        encoder = nil
        for index in 0..<blockCount { FLAC__metadata_object_delete(blocks[index]) }
        blocks.deallocate()
    }

    /// The one funnel for libFLAC failures: a full disk, or the encoder's state in words.
    private func failure(_ encoder: UnsafeMutablePointer<FLAC__StreamEncoder>, doing action: String, errno code: CInt) -> NarrationError {
        if let full = diskFullError(path: path, errno: code) { return full }
        let state = String(cString: narrate_flac_encoder_state(encoder))
        let reason = code != 0 ? "\(String(cString: strerror(code))) (\(state))" : state
        return NarrationError(.fileSystem, "Cannot \(action) \(path): \(reason).")
    }
}
