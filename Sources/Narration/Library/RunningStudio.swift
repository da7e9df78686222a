public import Foundation

/// The web studio serving a data root right now, as `narrate serve` records it: its link (token
/// included) and its process, in `web-studio.link` in the data root.
///
/// It lets `narrate serve --open` (the desktop entry's command) open the studio that is already
/// running, the systemd user unit's, instead of failing on the port that one holds. The link lets
/// whoever has it in, so the record is its owner's alone from its first byte (0600, written
/// atomically), and one that another user owns, others may read, or that is a symbolic link is
/// not believed.
public struct RunningStudio: Sendable, Equatable, Codable {
    public let url: URL
    public let processID: Int32

    public init(url: URL) {
        self.url = url
        processID = FileSystem.processID
    }

    public static func recordURL(in root: DataRoot) -> URL { root.url.appendingPathComponent("web-studio.link") }

    /// The studio recorded for `root`, if its record is private and its process still runs the
    /// same program as this one: a record left by a killed studio, or whose process number another
    /// program now has, is none. An upgraded program still counts as the same.
    public static func find(in root: DataRoot) -> RunningStudio? {
        guard let bytes = FileSystem.privateContents(of: recordURL(in: root).path, limit: 4096),
            let studio = try? JSONDecoder().decode(RunningStudio.self, from: Data(bytes)),
            ["http", "https"].contains(studio.url.scheme), studio.processID != FileSystem.processID,
            let theirs = FileSystem.program(ofProcess: studio.processID), theirs == FileSystem.program(ofProcess: FileSystem.processID)
        else { return nil }
        return studio
    }

    /// Records this process's studio. A record that cannot be written only costs the desktop
    /// entry its shortcut, so it is not an error.
    public func record(in root: DataRoot) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileSystem.writeAtomically(data, to: Self.recordURL(in: root), permissions: 0o600)
    }

    /// Removes the record of `root` if it is this process's.
    public static func forgetOwnRecord(in root: DataRoot) {
        let url = recordURL(in: root)
        guard let bytes = FileSystem.privateContents(of: url.path, limit: 4096),
            let recorded = try? JSONDecoder().decode(RunningStudio.self, from: Data(bytes)), recorded.processID == FileSystem.processID
        else { return }
        FileSystem.discard(url)
    }
}
