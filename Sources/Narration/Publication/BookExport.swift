public import Foundation
public import NarrationCore

/// The kinds of book an article is published as, beside its audio file.
public enum BookFormat: String, Sendable, CaseIterable, Codable {
    /// EPUB 3 with a media overlay: one `.epub` file.
    case epub
    /// DAISY 2.02 full text and audio: a folder (or, for a name ending in `.zip`, one zip).
    case daisy

    /// The format's name as volunteers know it.
    public var name: String {
        switch self {
        case .epub: "EPUB"
        case .daisy: "DAISY 2.02"
        }
    }
}

/// What a book export made.
public struct BookResult: Sendable {
    public let format: BookFormat
    /// The `.epub` file, the DAISY book's folder, or its `.zip`.
    public let location: URL
    /// Whether `location` is one ZIP file (an EPUB, a zipped DAISY book) rather than a folder.
    public let isArchive: Bool
    /// The file's size, or the folder's files' sizes added up.
    public let bytes: Int
    /// The MP3 inside the book, as the exporter made it; its `plan` gave every clip time. Its
    /// `file` is the MP3 in a DAISY folder, or the book's own file when the MP3 is inside a zip.
    public let audio: ExportResult
    /// Items of the text read (the title and headings included).
    public let paragraphs: Int
    /// `par` elements in the book's SMIL: EPUB has one per sentence where the take check placed
    /// them, DAISY one per paragraph.
    public let pars: Int
    /// Chunks that read no paragraph ("Part N" items).
    public let parts: Int
}

extension NarrationLibrary {
    /// Publishes the article as a book with its text and audio (see `BookFormat`), atomically.
    ///
    /// The audio is one MP3 made by the exporter with `settings`' mastering and profile, in
    /// `settings.mp3` when `settings.format` is MP3, else at a constant 64 kbit/s (mono) or
    /// 128 kbit/s (stereo), at the article's rate (or the profile's), which LAME encodes
    /// gaplessly. Every clip time comes from that export's plan, at the article's rate.
    /// - Throws: `textUnreadable` (remedy `attachText`) when the article has no text, before
    ///   anything is written; `usage` for a destination that is a folder (EPUB, zip) or a file
    ///   or a folder other than a DAISY book (DAISY folder); everything `export` throws. On any
    ///   failure nothing appears at `destination`, and what was there is left untouched.
    @discardableResult
    public func exportBook(
        _ article: Article, as format: BookFormat, to destination: URL, settings: ExportSettings,
        progress: (FrameCount, FrameCount) -> Void = { _, _ in }
    ) throws(NarrationError) -> BookResult {
        let lock = try ArticleLock.acquire(for: article, at: root.lockURL(article.id), purpose: .export)
        defer { withExtendedLifetime(lock) {} }
        return try exportBookLocked(article, entries: try chunkEntries(of: article), as: format, to: destination, settings: settings, progress: progress)
    }

    /// `exportBook` for a caller that already holds the article's lock and has read its chunks (queue).
    func exportBookLocked(
        _ article: Article, entries: [ChunkEntry], as format: BookFormat, to destination: URL, settings: ExportSettings,
        progress: (FrameCount, FrameCount) -> Void = { _, _ in }
    ) throws(NarrationError) -> BookResult {
        func noText() -> NarrationError {
            NarrationError(.textUnreadable, "\"\(article.title)\" has no text, so there is no \(format.name) book to make.", remedy: .attachText)
        }
        guard try !catalog.paragraphs(of: article.id).isEmpty else { throw noText() }
        let isArchive = format == .epub || destination.pathExtension.lowercased() == "zip"
        try checkBookDestination(destination, folder: !isArchive)

        var audioSettings = settings
        if settings.format != .mp3 {
            audioSettings.format = .mp3
            audioSettings.mp3 = .constant(kbps: article.format.channels == 1 ? 64 : 128)
            // A rule about PCM (telephone's 16 bits) means nothing for the book's MP3.
            if let profile = audioSettings.profile {
                audioSettings.profile = DeliveryProfile(
                    name: profile.name, format: .mp3, mp3: audioSettings.mp3, mastering: profile.mastering,
                    rules: profile.rules.filter { $0.requiredBitsPerSample == nil }, carries: profile.carries, opusKbps: profile.opusKbps)
            }
        }
        // Everything is made in a hidden folder beside the destination: the MP3 first, then the
        // documents; a DAISY folder is this folder, renamed into place.
        let staging = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).narrate-book")
        try FileSystem.removeTree(staging)
        try FileSystem.createDirectory(staging)
        do throws(NarrationError) {
            let audioFile = staging.appendingPathComponent(DAISYBook.audioFile)
            let audio = try exportLocked(article, entries: entries, to: audioFile, settings: audioSettings, progress: progress)
            // --from/--to may leave only chunks that read no paragraph.
            guard let text = BookText(plan: audio.plan, language: settings.language) else { throw noText() }
            let pars: Int
            if format == .epub {
                let package = EPUBPackage(text: text, tags: audio.plan.tags, modified: Self.modifiedStamp(Date()))
                pars = package.overlay.pars.count
                let entries: [BookArchive.Entry] =
                    [.text(path: "mimetype", EPUBPackage.mimetype, compressed: false)]
                    + package.documents.map { .text(path: $0.path, $0.contents, compressed: true) }
                    + [.file(path: EPUBPackage.audioPath, audioFile)]
                try BookArchive.write(entries, to: destination)
            } else {
                let book = DAISYBook(text: text, tags: audio.plan.tags)
                pars = text.timedItems.count
                if isArchive {
                    let entries: [BookArchive.Entry] =
                        book.documents.map { .text(path: $0.path, $0.contents, compressed: true) } + [.file(path: DAISYBook.audioFile, audioFile)]
                    try BookArchive.write(entries, to: destination)
                } else {
                    for document in book.documents {
                        try FileSystem.writeAtomically(Data(document.contents.utf8), to: staging.appendingPathComponent(document.path))
                    }
                    try Self.replaceFolder(destination, with: staging)
                }
            }
            try? FileSystem.removeTree(staging)
            let bytes = isArchive ? FileSystem.size(destination) : Self.folderSize(destination)
            return BookResult(
                format: format, location: destination, isArchive: isArchive, bytes: bytes,
                audio: ExportResult(
                    file: isArchive ? destination : destination.appendingPathComponent(DAISYBook.audioFile), frames: audio.frames,
                    bytes: audio.bytes, plan: audio.plan, chapters: audio.chapters, gainDecibels: audio.gainDecibels, encoders: audio.encoders,
                    noiseReduction: audio.noiseReduction, recordingNoiseFloor: audio.recordingNoiseFloor),
                paragraphs: text.paragraphCount, pars: pars, parts: text.items.filter { $0.kind == .part }.count)
        } catch {
            try? FileSystem.removeTree(staging)
            throw error
        }
    }

    /// `dcterms:modified` of `date`: `CCYY-MM-DDThh:mm:ssZ`.
    static func modifiedStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: date)
    }

    /// Puts the finished book folder `staging` at `destination`: an old book there is moved
    /// aside first and removed only once the new one is in place (two renames; between them
    /// neither is at `destination`, but neither is ever incomplete).
    private static func replaceFolder(_ destination: URL, with staging: URL) throws(NarrationError) {
        FileSystem.syncDirectory(staging)
        let old = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).narrate-old")
        try FileSystem.removeTree(old)
        let hadOld = FileSystem.exists(destination)
        if hadOld { try FileSystem.move(destination, to: old) }
        do throws(NarrationError) {
            try FileSystem.move(staging, to: destination)
        } catch {
            if hadOld { try? FileSystem.move(old, to: destination) }
            throw error
        }
        FileSystem.syncDirectory(destination.deletingLastPathComponent())
        if hadOld { try? FileSystem.removeTree(old) }
    }

    private static func folderSize(_ folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { $0 + FileSystem.size(folder.appendingPathComponent($1)) }
    }

    /// Refuses a destination that would lose something: a folder where a file goes, or for a
    /// DAISY folder, a file or a folder that is not a DAISY book (one without `ncc.html`).
    private func checkBookDestination(_ destination: URL, folder: Bool) throws(NarrationError) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory)
        if folder {
            if exists && !isDirectory.boolValue {
                throw .usage("\(destination.path) is a file, not a book folder; give a new folder's name, or one ending in .zip for one file.")
            }
            if exists && !FileSystem.exists(destination.appendingPathComponent(DAISYBook.nccFile)) {
                throw .usage("\(destination.path) is a folder that holds no DAISY book (no ncc.html); give a new folder's name so nothing in it is lost.")
            }
        } else if exists && isDirectory.boolValue {
            throw .usage("\(destination.path) is a folder; give the file to write, e.g. \(destination.appendingPathComponent("article.epub").path).")
        }
        let parent = destination.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw NarrationError(.fileSystem, "The folder \(parent.path) does not exist; create it or export somewhere else.")
        }
    }
}
