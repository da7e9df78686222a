public import Foundation
import Glibc
import NarrationAudio
public import NarrationCore

/// How an article is exported.
public struct ExportSettings: Sendable, Equatable {
    public var format: ExportFormat
    /// Used for MP3 only.
    public var mp3: MP3Encoding
    /// One chapter per chunk (MP3: CTOC + CHAP).
    public var chapters: Bool

    public init(format: ExportFormat, mp3: MP3Encoding = .constant(kbps: 128), chapters: Bool = true) {
        self.format = format
        self.mp3 = mp3
        self.chapters = chapters
    }
}

/// What an export made.
public struct ExportResult: Sendable {
    public let file: URL
    public let frames: FrameCount
    public let bytes: Int
    public let plan: ExportPlan
}

/// Concatenates an article's chunks into one tagged file.
///
/// Streaming: one block of samples is in memory at a time, whatever the article's length. The
/// output appears atomically: it is written to a hidden temporary file in the destination's
/// folder, forced to disk and renamed into place; on any failure the temporary file is removed,
/// so the destination never holds a partial file.
enum Exporter {
    static let blockFrames = 16_384

    static func export(
        _ files: [URL], plan: ExportPlan, settings: ExportSettings, to destination: URL,
        progress: (FrameCount) -> Void
    ) throws(NarrationError) -> ExportResult {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(Identifier.random()).partial")
        do throws(NarrationError) {
            let sink: any AudioSink
            switch settings.format {
            case .mp3:
                sink = try MP3Writer(
                    creating: temporary.path, format: plan.format, encoding: settings.mp3,
                    tag: ID3Tag(plan: plan, chapters: settings.chapters))
            case .wav, .flac:
                sink = try SoundFileWriter(creating: temporary.path, format: plan.format, container: settings.format, tags: plan.tags)
            }
            var done: FrameCount = 0
            do throws(NarrationError) {
                var block = [Int32](repeating: 0, count: blockFrames * plan.format.channels)
                for file in files {
                    let reader = try SoundFileReader(path: file.path)
                    defer { reader.close() }
                    while true {
                        let read = try block.withUnsafeMutableBufferPointer { (buffer) throws(NarrationError) in
                            try reader.read(into: buffer, frames: blockFrames)
                        }
                        if read == 0 { break }
                        try block.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
                            try sink.write(UnsafeBufferPointer(rebasing: buffer[0..<(read * plan.format.channels)]))
                        }
                        done += read
                        progress(done)
                    }
                }
                try sink.close()
            } catch {
                try? sink.close()
                throw error
            }
            guard rename(temporary.path, destination.path) == 0 else {
                throw NarrationError(.fileSystem, "Cannot move the export into place at \(destination.path): \(String(cString: strerror(errno))).")
            }
            FileSystem.syncDirectory(folder)
            return ExportResult(file: destination, frames: done, bytes: FileSystem.size(destination), plan: plan)
        } catch {
            unlink(temporary.path)
            if error.kind == .diskFull {
                throw NarrationError(.diskFull, "\(error.message) Nothing was written to \(destination.path); free some space and export again.")
            }
            throw error
        }
    }
}

extension NarrationLibrary {
    /// Exports the article's chunks, in order, to `destination`.
    /// - Parameter progress: called with the frames done so far, from this thread.
    /// - Throws: `emptyArticle`; `chunkFileMissing`/`fileCorrupt` naming the chunk; `articleBusy`
    ///   while the article is being recorded; `usage` for a bitrate LAME cannot make gapless;
    ///   `fileSystem`/`diskFull` for the destination (which is then left untouched).
    @discardableResult
    public func export(
        _ article: Article, to destination: URL, settings: ExportSettings, progress: (FrameCount, FrameCount) -> Void = { _, _ in }
    ) throws(NarrationError) -> ExportResult {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id))
        defer { withExtendedLifetime(lock) {} }
        if settings.format == .mp3 { try settings.mp3.validate(for: article.format) }
        let entries = try chunkEntries(of: article)
        guard !entries.isEmpty else {
            throw NarrationError(.emptyArticle, "\"\(article.title)\" has no chunks yet, so there is nothing to export. Record one with \"narrate record\".")
        }
        for entry in entries {
            try verifyFile(of: entry, format: article.format, fix: "Re-record it (narrate record --replace \(entry.index)) or delete it, then export again.")
        }
        try checkDestination(destination)
        let plan = ExportPlan(format: article.format, chunkFrames: entries.map(\.chunk.frames), tags: tags(for: article, entries: entries))
        return try Exporter.export(entries.map(\.file), plan: plan, settings: settings, to: destination) { done in
            progress(done, plan.totalFrames)
        }
    }

    func tags(for article: Article, entries: [ChunkEntry]) -> ExportTags {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let recorded = entries.map(\.chunk.recordedAt).min() ?? article.createdAt
        let comment = article.narrator.isEmpty ? "Narrated with narrate." : "Narrated by \(article.narrator)."
        return ExportTags(
            title: article.title, narrator: article.narrator, publication: article.publication,
            date: formatter.string(from: recorded), comment: comment, articleID: article.id.rawValue)
    }

    private func checkDestination(_ destination: URL) throws(NarrationError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .usage("\(destination.path) is a folder; give the file to write, e.g. \(destination.appendingPathComponent("article.mp3").path).")
        }
        let folder = destination.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw NarrationError(.fileSystem, "The folder \(folder.path) does not exist; create it or export somewhere else.")
        }
        guard access(folder.path, W_OK) == 0 else {
            throw NarrationError(.fileSystem, "Cannot write to \(folder.path) (\(String(cString: strerror(errno)))); export somewhere else.")
        }
    }
}
