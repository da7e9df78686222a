import Foundation
import NarrationAudio
import NarrationCore

extension NarrationLibrary {
    /// Checks a chunk's file before it is played or exported: present, readable, in the article's
    /// format and as long as the catalog says.
    /// - Parameter fix: the sentence that tells the volunteer what to do about a bad chunk.
    /// - Throws: `chunkFileMissing` or `fileCorrupt`, naming the chunk and its file.
    func verifyFile(of entry: ChunkEntry, format: AudioFormat, then: Remedy.AfterMending) throws(NarrationError) {
        let fix = Remedy.replaceOrDeleteChunk(entry.index, then: then)
        guard !entry.fileMissing else {
            throw NarrationError(
                .chunkFileMissing, "Chunk \(entry.index)'s file \(entry.file.path) is missing.", subject: .file(entry.file.path), remedy: fix)
        }
        let reader: SoundFileReader
        do {
            reader = try SoundFileReader(path: entry.file.path)
        } catch {
            throw NarrationError(
                .fileCorrupt, "Chunk \(entry.index)'s file \(entry.file.path) is damaged (\(error.message))", subject: .file(entry.file.path), remedy: fix)
        }
        defer { reader.close() }
        guard reader.format == format, reader.frames == entry.chunk.frames else {
            throw NarrationError(
                .fileCorrupt,
                "Chunk \(entry.index)'s file \(entry.file.path) is damaged: it holds \(reader.frames) frames of \(reader.format), the catalog expects \(entry.chunk.frames) of \(format).",
                subject: .file(entry.file.path), remedy: fix)
        }
    }

    /// What is wrong with `file`, a chunk's file, judged by its first 44 bytes and its size only,
    /// so that listing 500 chunks stays fast: a take's header is fully set by its format
    /// (`TakeHeader`), so a header with other fixed fields is another file, and a header or a size
    /// that holds fewer frames than the catalog's is a file cut short.
    /// - Returns: nil when the header is the article's and the file holds every frame.
    static func fileProblem(of file: URL, chunk: Chunk) -> FileProblem? {
        do throws(SystemError) {
            let opened = try OpenFile(file.path, .read)
            let status = try opened.status()
            guard status.kind == .file else { return .unreadable("not a file") }
            return problem(header: try opened.read(upTo: TakeHeader.size, at: 0), fileSize: status.size, chunk: chunk)
        } catch {
            return error.isMissing ? .missing : .unreadable(error.reason.lowercased())
        }
    }

    /// `fileProblem(of:chunk:)` for the file's first bytes (at most 44) and its size.
    static func problem(header: [UInt8], fileSize: Int, chunk: Chunk) -> FileProblem? {
        let format = chunk.format
        let riff = Array("RIFF".utf8)
        guard header.count >= TakeHeader.size else {
            // Too short for a header: cut short if what is there starts as a WAV does.
            return Array(header.prefix(4)) == Array(riff.prefix(min(4, header.count))) ? .truncated(frames: 0) : .unreadable("not a WAV file")
        }
        guard TakeHeader.isIntact(header, format: format) else {
            guard Array(header[0..<4]) == riff, Array(header[8..<16]) == Array("WAVEfmt ".utf8) else {
                return .unreadable("not a WAV file")
            }
            let found = AudioFormat(
                sampleRate: Int(littleEndian: header, at: 24, bytes: 4), channels: Int(littleEndian: header, at: 22, bytes: 2),
                bitsPerSample: Int(littleEndian: header, at: 34, bytes: 2))
            return found == format ? .unreadable("a WAV header narrate does not write") : .otherFormat(found)
        }
        let declared = Int(littleEndian: header, at: 40, bytes: 4) / format.bytesPerFrame
        let whole = min(declared, TakeHeader.frames(inFileOfSize: fileSize, format: format))
        return whole < chunk.frames ? .truncated(frames: whole) : nil
    }
}

extension Int {
    /// The unsigned little-endian number in `bytes` bytes of `data` at `offset`.
    fileprivate init(littleEndian data: [UInt8], at offset: Int, bytes: Int) {
        self = (0..<bytes).reduce(0) { $0 | Int(data[offset + $1]) << (8 * $1) }
    }
}
