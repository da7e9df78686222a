import Foundation

/// Whether the library can take work now, as a reading service's readiness check asks it
/// (`GET /ready`, for a reverse proxy or a monitor): the catalog answers a read, and the folder
/// that takes new recordings can be written. Nothing is written to find out.
public struct LibraryReadiness: Sendable, Equatable {
    /// Why the library cannot take work, as sentences that name no file, account or address:
    /// the check is open to anyone who can reach the server. Empty when it is ready.
    public let problems: [String]

    public var isReady: Bool { problems.isEmpty }

    static let catalogUnreadable = "The catalog cannot be read."
    static let recordingsNotWritable = "The folder for new recordings cannot be written."
}

extension NarrationLibrary {
    /// Checks the catalog and the recordings folder now.
    public func readiness() -> LibraryReadiness {
        var problems: [String] = []
        do {
            // A table, not `SELECT 1`: SQLite reads the file only for a table.
            _ = try catalog.reading { sql in try sql.row("SELECT COUNT(*) AS n FROM setting", []) }
        } catch {
            problems.append(LibraryReadiness.catalogUnreadable)
        }
        let folder = root.articlesURL.path
        // The folder is made with the first article: until then, the data root must take it.
        let writable = FileManager.default.fileExists(atPath: folder) ? folder : root.url.path
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: writable, isDirectory: &isFolder) || !isFolder.boolValue
            || !FileManager.default.isWritableFile(atPath: writable) || !FileManager.default.isExecutableFile(atPath: writable) {
            problems.append(LibraryReadiness.recordingsNotWritable)
        }
        return LibraryReadiness(problems: problems)
    }
}
