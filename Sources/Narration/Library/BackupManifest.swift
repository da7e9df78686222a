public import Foundation
import NarrationCore

/// What a backup holds: each file's path (the same below the backup folder as below the data
/// root), size and SHA-256. It is written last, atomically, as `manifest.json`: a backup folder
/// without one was not finished and is never restored, and a restore counts a file only once
/// its copy has the size and SHA-256 written here.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// One file of the backup.
    public struct File: Codable, Sendable, Equatable {
        /// Below the backup folder and the data root: `catalog.sqlite`, `articles/…`, `outbox/…`.
        public let path: String
        public let size: Int
        /// Lower-case hexadecimal.
        public let sha256: String
    }

    /// The manifest's own format; a restore refuses one it does not know.
    public let format: Int
    public let createdAt: Date
    public let files: [File]

    /// The manifest's name in a backup folder.
    public static let fileName = "manifest.json"
    /// The catalog's name in a backup folder and in a data root.
    static let catalogPath = "catalog.sqlite"
    static let currentFormat = 1
    /// A manifest larger than this is not one narrate wrote (a million files take about 150 MiB).
    static let sizeLimit = 256 << 20

    init(createdAt: Date, files: [File]) {
        format = Self.currentFormat
        self.createdAt = createdAt
        self.files = files
    }

    /// The manifest as `manifest.json` holds it: pretty, key-sorted JSON, dates in ISO 8601.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Strings, integers and a date always encode.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Reads and checks the manifest of the backup in `folder`.
    /// - Throws: `fileSystem` when there is none (an unfinished backup, or a folder that is not a
    ///   backup) or it cannot be read; `fileCorrupt` when it is not a manifest narrate writes: not
    ///   JSON, another format, a path that would leave the data root or is not one of a
    ///   library's files, a size below zero, a malformed SHA-256, a path twice, no catalog.
    static func read(from folder: URL) throws(NarrationError) -> BackupManifest {
        let url = folder.appendingPathComponent(fileName)
        guard let bytes = try FileSystem.ownContents(of: url, limit: sizeLimit) else {
            // Given the folder that holds backups, name its newest.
            let newest = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasPrefix("narrate-backup-") }.max()
            let example = newest.map { folder.appendingPathComponent($0).path } ?? "narrate-backup-2026-11-26-120000"
            throw NarrationError(
                .fileSystem,
                "\(folder.path) holds no \(fileName), so it is not a finished backup (a backup writes it last); give the dated folder a backup made, such as \(example).",
                subject: .file(folder.path))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let manifest: BackupManifest
        do {
            manifest = try decoder.decode(BackupManifest.self, from: Data(bytes))
        } catch {
            throw damaged(url, "it is not the JSON a backup writes")
        }
        guard manifest.format == currentFormat else {
            throw damaged(url, "its format \(manifest.format) is not one this narrate reads (\(currentFormat)); restore it with the narrate that made it")
        }
        var seen = Set<String>()
        for file in manifest.files {
            guard isLibraryPath(file.path) else { throw damaged(url, "it lists \"\(Catalog.quoted(file.path))\", which is not a file of a library") }
            guard file.size >= 0 else { throw damaged(url, "it gives \(file.path) a size below zero") }
            guard isSHA256(file.sha256) else { throw damaged(url, "the SHA-256 it gives \(file.path) is not 64 hexadecimal digits") }
            guard seen.insert(file.path).inserted else { throw damaged(url, "it lists \(file.path) twice") }
        }
        guard seen.contains(catalogPath) else { throw damaged(url, "it lists no \(catalogPath)") }
        return manifest
    }

    /// Whether `path` names one of a library's files below its root: the catalog, or a file below
    /// `articles/` or `outbox/`, with plain names only (no `..`, no empty or hidden step), so that
    /// no manifest can have a restore write outside the folder it makes.
    static func isLibraryPath(_ path: String) -> Bool {
        guard path.utf8.count <= 1024, !path.contains("\0") else { return false }
        if path == catalogPath { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.count <= 6, ["articles", "outbox"].contains(parts[0]) else { return false }
        return parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && $0.utf8.count <= 255 }
    }

    private static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func damaged(_ url: URL, _ why: String) -> NarrationError {
        NarrationError(
            .fileCorrupt, "The backup's manifest \(url.path) cannot be used: \(why). Nothing was restored.", subject: .file(url.path))
    }
}
