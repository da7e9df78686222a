import NarrationAudio
import NarrationCore

extension NarrationLibrary {
    /// Checks a chunk's file before it is played or exported: present, readable, in the article's
    /// format and as long as the catalog says.
    /// - Parameter fix: the sentence that tells the volunteer what to do about a bad chunk.
    /// - Throws: `chunkFileMissing` or `fileCorrupt`, naming the chunk and its file.
    func verifyFile(of entry: ChunkEntry, format: AudioFormat, fix: String) throws(NarrationError) {
        guard !entry.fileMissing else {
            throw NarrationError(.chunkFileMissing, "Chunk \(entry.index)'s file \(entry.file.path) is missing. \(fix)")
        }
        let reader: SoundFileReader
        do {
            reader = try SoundFileReader(path: entry.file.path)
        } catch {
            throw NarrationError(.fileCorrupt, "Chunk \(entry.index)'s file \(entry.file.path) is damaged (\(error.message)) \(fix)")
        }
        defer { reader.close() }
        guard reader.format == format, reader.frames == entry.chunk.frames else {
            throw NarrationError(
                .fileCorrupt,
                "Chunk \(entry.index)'s file \(entry.file.path) is damaged: it holds \(reader.frames) frames of \(reader.format), the catalog expects \(entry.chunk.frames) of \(format). \(fix)")
        }
    }
}
