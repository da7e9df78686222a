public import NarrationCore

/// An MP3 file being encoded in one stream by LAME: the single owner of its encoder and file.
///
/// The file is the ID3v2.4 tag, then one LAME stream over everything written, so that there is
/// no gap at chunk seams. LAME's first frame is a placeholder for its info ("Xing/LAME") tag;
/// `close()` writes the real one over it, with the encoder delay and padding, so that decoders
/// return exactly the frames written. `ParallelMP3Writer` makes the same stream on several cores.
public final class MP3Writer: AudioSink, @unchecked Sendable {
    public let path: String
    public let format: AudioFormat
    private var encoder: LAMEEncoder?
    private let file: DescriptorFile
    private let tagLength: Int

    /// Creates `path` (which must not exist) and starts encoding.
    /// - Throws: `usage` for encodings LAME cannot make gapless; `fileSystem`, `diskFull`.
    public init(creating path: String, format: AudioFormat, encoding: MP3Encoding, tag: ID3Tag) throws(NarrationError) {
        self.path = path
        self.format = format
        let encoder = try LAMEEncoder(format: format, encoding: encoding, writesInfoTag: true, path: path)
        file = try DescriptorFile(creating: path)
        let tagBytes = tag.bytes
        tagLength = tagBytes.count
        do throws(NarrationError) {
            try tagBytes.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try file.write(UnsafeRawBufferPointer(bytes)) }
        } catch {
            file.remove()
            throw error
        }
        self.encoder = encoder
    }

    /// Encodes interleaved samples.
    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(NarrationError) {
        guard let encoder else { preconditionFailure("write after close") }
        try encoder.encode(samples) { (bytes) throws(NarrationError) in try file.write(bytes) }
    }

    /// Flushes the encoder, writes the info tag over the placeholder frame, fsyncs and closes.
    public func close() throws(NarrationError) {
        guard let encoder else { return }
        self.encoder = nil
        defer { file.close() }
        try encoder.flush { (bytes) throws(NarrationError) in try file.write(bytes) }
        let infoTag = encoder.infoTag()
        if !infoTag.isEmpty {
            try infoTag.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try file.write(UnsafeRawBufferPointer(bytes), at: tagLength) }
        }
        try file.sync()
    }
}
