import Foundation
import ZIPFoundation

/// The zip container of a Word (`.docx`) or OpenDocument (`.odt`) file: the one file of this
/// target that imports ZIPFoundation.
enum OfficeArchive {
    /// Why an entry could not be had.
    enum Failure: Error {
        /// Not a zip archive at all (or a damaged one).
        case notZip
        /// The archive has no entry at that path.
        case missing
        /// The entry is larger than `largestEntry` once inflated (a zip bomb, or no article).
        case tooLarge
        /// The entry could not be inflated or its checksum is wrong.
        case damaged
    }

    /// The most an entry may hold once inflated: far more than any article's XML.
    static let largestEntry = 64 << 20

    /// The bytes of the entry at `path` in the zip archive `bytes`, its checksum checked.
    ///
    /// ZIPFoundation's in-memory archive traps on a damaged central directory (an offset past
    /// the end), so the bytes are read from a file of their own in a new private folder, which
    /// it reads with `fread` and refuses cleanly.
    static func entry(_ path: String, in bytes: [UInt8]) throws(Failure) -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-text-\(UUID().uuidString)")
        let file = folder.appendingPathComponent("archive.zip")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try Data(bytes).write(to: file, options: .withoutOverwriting)
        } catch {
            throw .damaged
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let archive = try? Archive(url: file, accessMode: .read) else { throw .notZip }
        guard let entry = archive[path] else { throw .missing }
        guard entry.uncompressedSize <= UInt64(largestEntry) else { throw .tooLarge }
        var data: [UInt8] = []
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard data.count + chunk.count <= largestEntry else { throw Failure.tooLarge }
                data.append(contentsOf: chunk)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .damaged
        }
        return data
    }
}
