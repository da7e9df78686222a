/// Every failure the tool reports: what kind of failure it is, and one sentence for the volunteer
/// that says what happened and what to do.
///
/// The kind is for code (exit codes, tests, retries); the message is for people. Bugs in our own
/// logic are not errors: they trap.
public struct NarrationError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The command line asked for something that cannot be (exit status 64).
        case usage
        case noCurrentArticle
        case unknownArticle
        case chunkIndexOutOfRange
        case emptyArticle
        case deviceNotFound
        case deviceBusy
        case deviceUnsupportedFormat
        case deviceFailed
        case articleBusy
        /// The export was withdrawn (the article changed, or was queued again): it is never sent.
        case exportWithdrawn
        case dataRootNotWritable
        case diskFull
        case catalogCorrupt
        case chunkFileMissing
        case fileCorrupt
        case fileSystem
        /// No credentials for object storage, or a credentials file others can read.
        case credentials
        /// The storage could not be reached at all (may pass: try again later).
        case storageUnreachable
        /// The storage failed or the connection broke (may pass: try again later).
        case storageUnavailable
        /// The storage refused the request: credentials, bucket, clock (will not pass by itself).
        case storageRefused
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The process exit status the command line uses: 64 (EX_USAGE) for usage errors, 1 otherwise.
    public var exitStatus: Int32 { kind == .usage ? 64 : 1 }

    /// Whether the same request may succeed later without anyone changing anything.
    public var mayPass: Bool { kind == .storageUnreachable || kind == .storageUnavailable }
}

extension NarrationError {
    public static func usage(_ message: String) -> NarrationError { NarrationError(.usage, message) }

    public static func unsupportedFormat(_ message: String) -> NarrationError { NarrationError(.usage, message) }

    public static let noCurrentArticle = NarrationError(
        .noCurrentArticle,
        "There is no current article. Start one with \"narrate new TITLE\" or pass --article ID.")

    public static func unknownArticle(_ id: String) -> NarrationError {
        NarrationError(.unknownArticle, "No article has the id \"\(id)\". Run \"narrate list\" to see the articles.")
    }

    public static func ambiguousArticle(_ prefix: String, matches: [ArticleID]) -> NarrationError {
        NarrationError(
            .unknownArticle,
            "\"\(prefix)\" matches \(matches.count) articles (\(matches.map(\.rawValue).sorted().joined(separator: ", "))); give more of the id.")
    }

    /// Nothing to `verb` ("play", "export", "check"): no chunk recorded yet, or pruned after delivery.
    public static func emptyArticle(_ article: Article, nothingTo verb: String) -> NarrationError {
        guard article.state != .pruned else {
            return NarrationError(
                .emptyArticle,
                "\"\(article.title)\" has no chunks: its recordings were removed by prune after delivery, so there is nothing to \(verb). Its delivered file is listed by \"narrate outbox\".")
        }
        return NarrationError(.emptyArticle, "\"\(article.title)\" has no chunks yet, so there is nothing to \(verb). Record one with \"narrate record\".")
    }

    public static func chunkIndexOutOfRange(_ index: ChunkIndex, count: Int) -> NarrationError {
        let range = count == 0 ? "the article has no chunks yet" :
            count == 1 ? "the article has 1 chunk (1)" : "the article has \(count) chunks (1–\(count))"
        return NarrationError(.chunkIndexOutOfRange, "There is no chunk \(index.number): \(range). Run \"narrate chunks\" to see them.")
    }
}
