public import Foundation
import Glibc
public import NarrationCore

/// The folder that holds everything a volunteer records: the catalog and the articles' chunks.
///
/// `$NARRATE_HOME`, else `$XDG_DATA_HOME/narrate`, else `~/.local/share/narrate`.
/// Layout: `catalog.sqlite`; `articles/<article-id>/chunks/<chunk-id>.wav` (never renamed);
/// `articles/<article-id>/chunks/<chunk-id>.partial.wav` while a take is being recorded;
/// `articles/<article-id>/trash/` for replaced and deleted takes; `articles/<article-id>/recording.lock`.
public struct DataRoot: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    /// The data root the environment names.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> DataRoot {
        if let home = environment["NARRATE_HOME"], !home.isEmpty {
            return DataRoot(url: URL(fileURLWithPath: home, isDirectory: true))
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return DataRoot(url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("narrate", isDirectory: true))
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return DataRoot(url: URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/narrate", isDirectory: true))
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

    /// Creates the root and its `articles` folder if needed, and proves that it can be written.
    /// - Throws: `dataRootNotWritable` naming the folder, the system's reason, and the way out.
    public func prepare() throws(NarrationError) {
        let failure: CInt? = {
            if let failure = FileSystem.makeDirectories(articlesURL) { return failure }
            let probe = url.appendingPathComponent(".write-probe-\(getpid())")
            let descriptor = open(probe.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return errno }
            close(descriptor)
            unlink(probe.path)
            return nil
        }()
        if let failure {
            throw NarrationError(
                .dataRootNotWritable,
                "Cannot write to the data folder \(url.path) (\(String(cString: strerror(failure)))). Make it writable or set NARRATE_HOME to a folder you can write.")
        }
    }

    /// Creates an article's folders.
    func prepareArticle(_ id: ArticleID) throws(NarrationError) {
        try FileSystem.createDirectory(chunksURL(id))
        try FileSystem.createDirectory(trashURL(id))
    }
}
