public import Foundation
public import NarrationCore

/// The folder that holds everything a volunteer records: the catalog and the articles' chunks.
///
/// `$NARRATE_HOME`, else `$XDG_DATA_HOME/narrate`, else `~/.local/share/narrate`.
/// Layout: `catalog.sqlite`; `articles/<article-id>/chunks/<chunk-id>.wav` (never renamed);
/// `articles/<article-id>/chunks/<chunk-id>.partial.wav` while a take is being recorded;
/// `articles/<article-id>/trash/` for replaced and deleted takes; `articles/<article-id>/recording.lock`.
public struct DataRoot: Sendable {
    public let url: URL
    /// Whether `prepare()` may create the root's missing parent folders: true for the default
    /// places (`$XDG_DATA_HOME`, `~/.local/share`, which a new account may not have yet), false
    /// for a folder named on purpose, whose missing parent means a mistake or a share not mounted.
    public let createsParents: Bool
    /// The environment variable that named the root (`NARRATE_HOME`, `XDG_DATA_HOME`); nil for
    /// the default place or a root given otherwise.
    public let variable: String?

    public init(url: URL, createsParents: Bool = false, variable: String? = nil) {
        self.url = url
        self.createsParents = createsParents
        self.variable = variable
    }

    /// The data root the environment names: `$NARRATE_HOME`, else `$XDG_DATA_HOME/narrate` (a
    /// relative `XDG_DATA_HOME` is ignored, as the XDG specification says), else
    /// `~/.local/share/narrate`.
    /// - Throws: `dataRootNotWritable` when `NARRATE_HOME` is a relative path, which would name
    ///   a different folder in every working directory.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NarrationError) -> DataRoot {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        if let root = environment["NARRATE_HOME"], !root.isEmpty {
            guard root.hasPrefix("/") else {
                throw NarrationError(
                    .dataRootNotWritable,
                    "NARRATE_HOME is the relative path \(root); set it to a full path such as \(URL(fileURLWithPath: home).appendingPathComponent("narrations").path).")
            }
            return DataRoot(url: URL(fileURLWithPath: root, isDirectory: true), variable: "NARRATE_HOME")
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return DataRoot(
                url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("narrate", isDirectory: true), createsParents: true,
                variable: "XDG_DATA_HOME")
        }
        return DataRoot(
            url: URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/narrate", isDirectory: true),
            createsParents: true)
    }

    public var catalogURL: URL { url.appendingPathComponent("catalog.sqlite") }
    public var articlesURL: URL { url.appendingPathComponent("articles", isDirectory: true) }

    public func articleURL(_ id: ArticleID) -> URL { articlesURL.appendingPathComponent(id.rawValue, isDirectory: true) }
    public func chunksURL(_ id: ArticleID) -> URL { articleURL(id).appendingPathComponent("chunks", isDirectory: true) }
    public func trashURL(_ id: ArticleID) -> URL { articleURL(id).appendingPathComponent("trash", isDirectory: true) }
    public func lockURL(_ id: ArticleID) -> URL { articleURL(id).appendingPathComponent("recording.lock") }

    public func chunkURL(_ chunk: ChunkID, of article: ArticleID) -> URL {
        chunksURL(article).appendingPathComponent("\(chunk.rawValue).wav")
    }

    public func partialURL(_ chunk: ChunkID, of article: ArticleID) -> URL {
        chunksURL(article).appendingPathComponent("\(chunk.rawValue).partial.wav")
    }

    public func trashedChunkURL(_ chunk: ChunkID, of article: ArticleID) -> URL {
        trashURL(article).appendingPathComponent("\(chunk.rawValue).wav")
    }

    /// Whether commands may change the data root, or only read it.
    public enum Access: Sendable, Equatable {
        case readWrite
        /// The root exists but cannot be written (a disk remounted read-only, a folder of
        /// another user): the catalog and the chunks can still be read.
        case readOnly
    }

    /// Makes sure the root is a folder narrate can use, and says whether it can be written.
    ///
    /// A missing root is created with one `mkdir` (its missing parents too for the default
    /// places, see `createsParents`), and so is its `articles` folder. Whether the root can be
    /// written is asked of the kernel (`access(W_OK)`, which reports a read-only mount as
    /// EROFS); nothing is written to find out, so nothing is left behind by a kill.
    /// - Parameter allowingReadOnly: return `.readOnly` for a root that exists but cannot be
    ///   written, instead of throwing.
    /// - Throws: `dataRootNotWritable` naming the folder, the reason and the way out: its parent
    ///   does not exist, it is not a folder, it cannot be created or written.
    @discardableResult
    public func prepare(allowingReadOnly: Bool = false) throws(NarrationError) -> Access {
        let path = url.path
        var existing: FileStatus?
        do throws(SystemError) {
            existing = try FileSystem.status(of: path)
        } catch {
            guard error.isMissing else { throw unusable(error) }
        }
        if let existing {
            guard existing.kind == .folder else {
                throw NarrationError(
                    .dataRootNotWritable, "The data folder \(path) is a file, not a folder. Move it aside or set NARRATE_HOME to a folder you can write.",
                    subject: .file(path))
            }
        } else if createsParents {
            if let failure = FileSystem.makeDirectories(url) { throw unusable(SystemError(code: failure)) }
        } else {
            let parent = url.deletingLastPathComponent()
            // A parent that is a file makes the root's own stat fail with ENOTDIR, above.
            do throws(SystemError) {
                _ = try FileSystem.status(of: parent.path)
            } catch {
                throw error.isMissing
                    ? NarrationError(
                        .dataRootNotWritable,
                        "The data folder \(path) cannot be used: its parent \(parent.path) does not exist (is the share mounted?).",
                        subject: .file(path), cause: error.cause)
                    : unusable(error)
            }
            do throws(SystemError) {
                try FileSystem.makeDirectory(path)
            } catch {
                throw unusable(error)
            }
        }
        do throws(SystemError) {
            try FileSystem.checkWritable(path)
        } catch {
            guard allowingReadOnly, error.isWriteRefused else { throw unusable(error) }
            return .readOnly
        }
        do throws(SystemError) {
            try FileSystem.makeDirectory(articlesURL.path)
        } catch {
            throw unusable(error)
        }
        return .readWrite
    }

    /// "Cannot write to the data folder …", for a system call's failure.
    private func unusable(_ error: SystemError) -> NarrationError {
        NarrationError(
            .dataRootNotWritable,
            "Cannot write to the data folder \(url.path) (\(error.reason)). Make it writable or set NARRATE_HOME to a folder you can write.",
            subject: .file(url.path), cause: error.cause)
    }

    /// Creates an article's folders.
    func prepareArticle(_ id: ArticleID) throws(NarrationError) {
        try FileSystem.createDirectory(chunksURL(id))
        try FileSystem.createDirectory(trashURL(id))
    }
}
