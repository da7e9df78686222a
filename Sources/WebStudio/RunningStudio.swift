public import Foundation
public import Narration

/// The web studio serving a data root right now, as `narrate serve` records it: its link (token
/// included) and its process, in `web-studio.link` in the data root, readable by its owner only.
///
/// It lets `narrate serve --open` (the desktop entry's command) open the studio that is already
/// running, the systemd user unit's, instead of failing on the port that one holds.
public struct RunningStudio: Sendable, Equatable, Codable {
    public let url: URL
    public let processID: Int32

    public init(url: URL, processID: Int32 = getpid()) {
        self.url = url
        self.processID = processID
    }

    public static func recordURL(in root: DataRoot) -> URL { root.url.appendingPathComponent("web-studio.link") }

    /// The studio recorded for `root`, if its process still runs and is a narrate: a record left
    /// by a process that was killed, or whose number another program now has, is none.
    public static func find(in root: DataRoot) -> RunningStudio? {
        guard let data = try? Data(contentsOf: recordURL(in: root)),
            let studio = try? JSONDecoder().decode(RunningStudio.self, from: data),
            studio.processID > 0, studio.processID != getpid(), kill(studio.processID, 0) == 0,
            let theirs = executable(of: studio.processID), theirs == executable(of: getpid())
        else { return nil }
        return studio
    }

    /// Records this process's studio; owner-only, since the link lets whoever reads it in.
    /// A record that cannot be written only costs the desktop entry its shortcut, so it is not an error.
    public func record(in root: DataRoot) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        let url = Self.recordURL(in: root)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".web-studio.link.\(processID)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]),
            rename(temporary.path, url.path) == 0
        else {
            unlink(temporary.path)
            return
        }
    }

    /// Removes the record of `root` if it is this process's.
    public static func forgetOwnRecord(in root: DataRoot) {
        let url = recordURL(in: root)
        guard let data = try? Data(contentsOf: url), let recorded = try? JSONDecoder().decode(RunningStudio.self, from: data),
            recorded.processID == getpid()
        else { return }
        unlink(url.path)
    }

    private static func executable(of process: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/exe")
    }
}
