import Foundation
import NarrationCore
import ZIPFoundation

/// A book written as one ZIP file (an EPUB, or a zipped DAISY book), atomically: the entries go
/// into a hidden temporary file beside the destination, which is forced to disk and renamed
/// into place; on any failure it is removed and the destination is left as it was.
///
/// ZIPFoundation writes the entries in the order they are added, each local header rewritten
/// in place with its size and CRC once its data is written (no data descriptor, no extra field
/// below 4 GiB), so an EPUB's `mimetype`, added first with `.none`, is the first entry, stored
/// uncompressed, as OCF requires. It does not fsync: `FileSystem.syncFile` does, after the
/// archive is closed.
enum BookArchive {
    /// One entry: text made in memory, or a file on disk (the audio) copied in block by block.
    enum Entry {
        case text(path: String, String, compressed: Bool)
        case file(path: String, URL)
    }

    static func write(_ entries: [Entry], to destination: URL) throws(NarrationError) {
        try FileSystem.clearTemporary(beside: destination)
        let temporary = FileSystem.temporaryURL(beside: destination)
        do throws(NarrationError) {
            try fill(temporary, with: entries)
            try verify(temporary, holds: entries)
            try FileSystem.syncFile(temporary)
            do throws(SystemError) {
                try FileSystem.replace(destination, with: temporary)
            } catch {
                throw NarrationError(
                    .fileSystem, "Cannot move the book into place at \(destination.path): \(error.reason).", subject: .file(destination.path),
                    cause: error.cause)
            }
            FileSystem.syncDirectory(destination.deletingLastPathComponent())
        } catch {
            FileSystem.discard(temporary)
            throw error
        }
    }

    /// Reads the made archive back: every entry there, in order, each with its CRC checked.
    /// ZIPFoundation writes through a buffered stream and does not report a failed final flush
    /// (the central directory), so a full disk could otherwise leave a cut-off book that looks made.
    /// - Throws: `diskFull` or `fileSystem` naming the file when it is not whole.
    private static func verify(_ url: URL, holds entries: [Entry]) throws(NarrationError) {
        let failure = NarrationError(
            .fileSystem,
            "The book at \(url.path) was not written whole (the disk may be full), so it was not kept; free some space and try again.",
            subject: .file(url.path))
        guard let archive = try? Archive(url: url, accessMode: .read) else { throw failure }
        let paths = archive.map(\.path)
        let expected = entries.map { entry -> String in
            switch entry {
            case .text(let path, _, _), .file(let path, _): path
            }
        }
        guard paths == expected else { throw failure }
        for entry in archive {
            guard (try? archive.extract(entry, skipCRC32: false, consumer: { _ in })) != nil else { throw failure }
        }
    }

    /// Adds the entries to a new archive at `url`; the archive is closed when this returns.
    private static func fill(_ url: URL, with entries: [Entry]) throws(NarrationError) {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .create)
        } catch {
            throw NarrationError(.fileSystem, "Cannot create \(url.path): \(error.localizedDescription)", subject: .file(url.path))
        }
        let date = Date()
        for entry in entries {
            do {
                switch entry {
                case .text(let path, let contents, let compressed):
                    let data = Data(contents.utf8)
                    try archive.addEntry(
                        with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                        compressionMethod: compressed ? .deflate : .none
                    ) { position, size in
                        data.subdata(in: Int(position)..<Int(position) + size)
                    }
                case .file(let path, let file):
                    // MP3 does not deflate: stored.
                    try archive.addEntry(with: path, fileURL: file, compressionMethod: .none)
                }
            } catch {
                let code = (error as? POSIXError)?.code.rawValue ?? ((error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : 0)
                if code == ENOSPC || code == EDQUOT {
                    throw NarrationError(.diskFull, "The disk holding \(url.deletingLastPathComponent().path) is full; the book was not written.")
                }
                throw NarrationError(.fileSystem, "Cannot write \(entry.path) into \(url.path): \(error.localizedDescription)", subject: .file(url.path))
            }
        }
    }
}

extension BookArchive.Entry {
    var path: String {
        switch self {
        case .text(let path, _, _), .file(let path, _): path
        }
    }
}
