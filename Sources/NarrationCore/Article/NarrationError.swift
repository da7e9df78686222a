/// Every failure the tool reports, as values a front end renders: what kind of failure it is,
/// what it happened to, its underlying cause, what happened in words any front end can show, and
/// what the volunteer can do about it.
///
/// The engine never names a command or a key: the remedy is a value (`Remedy`), and each front end
/// says it its own way (the command line says "Run \"narrate devices\" to list devices.", a web page
/// can show a button). The kind is for code (exit codes, tests, retries). Bugs in our own logic are
/// not errors: they trap.
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
        /// An article's text that cannot be read: not text, not UTF-8, or nothing to read in it.
        case textUnreadable
        case fileSystem
        /// No credentials for object storage, or a credentials file others can read.
        case credentials
        /// The storage could not be reached at all (may pass: try again later).
        case storageUnreachable
        /// The storage failed or the connection broke (may pass: try again later).
        case storageUnavailable
        /// The storage refused the request: credentials, bucket, clock (will not pass by itself).
        case storageRefused
        /// The speech recogniser cannot start (its model or dictionary is missing or unreadable)
        /// or failed on a take. The take itself is fine: only its check is lost.
        case speechRecognition
        /// A file made under a delivery profile fails one of the profile's rules (it was not kept).
        case profileNotMet
        /// A destination's feed.xml that narrate cannot read (not XML, not RSS, or an item it
        /// cannot place): it is left as it is, never overwritten.
        case feedUnreadable
        /// Sending an article with paragraphs neither read nor skipped, without saying to send
        /// it as it is (`Remedy.readSkipOrSendIncomplete` names them).
        case articleUnfinished
        /// No account has the name given.
        case unknownAccount
        /// A reading service refused: an invitation that is used, expired or not genuine, a
        /// wrong passphrase, too many of them, an ended session, a disabled account.
        case accountRefused
        /// A reading service's permissions refused: the asker's role, or how the article stands
        /// to them, does not allow it (`Permissions.may`).
        case notPermitted
        /// The desk refused a change the article's state does not allow, or that someone else's
        /// change overtook.
        case deskRefused
    }

    /// What a failure happened to, for code that points at it (a file to show, a device to pick).
    public enum Subject: Sendable, Equatable {
        case file(String)
        case device(String)
        case article(ArticleID)
        case chunk(ChunkIndex)
        /// A folder or bucket address, as the settings give it.
        case destination(String)
    }

    /// What failed underneath, kept as the value the system, the storage or the database gave.
    public enum Cause: Sendable, Equatable {
        /// A system call's `errno`.
        case system(errno: Int32)
        /// An answer from object storage: its HTTP status and S3 error code, when it gave them.
        case storage(status: Int?, code: String?)
        /// An SQLite result code from the catalog.
        case database(code: Int32)
    }

    public let kind: Kind
    /// What happened, in words any front end can show; it names no command, flag or key.
    public let message: String
    public let subject: Subject?
    public let cause: Cause?
    /// What the volunteer can do about it, for the front end to say or offer.
    public let remedy: Remedy?
    /// The message with the fields it names kept as values, when it names any: a front end that
    /// names fields its own way says `message(naming:)`.
    public let fieldMessage: InputFieldMessage?

    public init(_ kind: Kind, _ message: String, subject: Subject? = nil, cause: Cause? = nil, remedy: Remedy? = nil) {
        self.kind = kind
        self.message = message
        self.subject = subject
        self.cause = cause
        self.remedy = remedy
        self.fieldMessage = nil
    }

    /// A failure whose message names fields the volunteer typed (`InputField`); `message` names them
    /// in plain words.
    public init(_ kind: Kind, naming message: InputFieldMessage, subject: Subject? = nil, cause: Cause? = nil, remedy: Remedy? = nil) {
        self.kind = kind
        self.message = message.plain
        self.subject = subject
        self.cause = cause
        self.remedy = remedy
        self.fieldMessage = message
    }

    /// What happened, with each field it names called by `name` (the command line's flags); the
    /// same as `message` for a message that names none.
    public func message(naming name: (InputField) -> String) -> String {
        fieldMessage?.said(naming: name) ?? message
    }

    /// Two failures are the same when they say the same thing and offer the same remedy, which is
    /// what a volunteer sees; the subject and cause are detail for code and are not compared.
    public static func == (lhs: NarrationError, rhs: NarrationError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.remedy == rhs.remedy
    }

    /// The message alone: a front end renders the remedy its own way.
    public var description: String { message }

    /// The process exit status the command line uses: 64 (EX_USAGE) for usage errors, 1 otherwise.
    public var exitStatus: Int32 { kind == .usage ? 64 : 1 }

    /// Whether the same request may succeed later without anyone changing anything.
    public var mayPass: Bool { kind == .storageUnreachable || kind == .storageUnavailable }
}

extension NarrationError {
    public static func usage(_ message: String) -> NarrationError { NarrationError(.usage, message) }

    public static func unsupportedFormat(_ message: String) -> NarrationError { NarrationError(.usage, message) }

    public static let noCurrentArticle = NarrationError(.noCurrentArticle, "There is no current article.", remedy: .startArticle)

    public static func unknownArticle(_ id: String) -> NarrationError {
        NarrationError(.unknownArticle, "No article has the id \"\(id)\".", remedy: .listArticles)
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
                "\"\(article.title)\" has no chunks: its recordings were removed by prune after delivery, so there is nothing to \(verb).",
                subject: .article(article.id), remedy: .showDeliveredFile)
        }
        return NarrationError(
            .emptyArticle, "\"\(article.title)\" has no chunks yet, so there is nothing to \(verb).", subject: .article(article.id), remedy: .recordChunk)
    }

    public static func chunkIndexOutOfRange(_ index: ChunkIndex, count: Int) -> NarrationError {
        let range = count == 0 ? "the article has no chunks yet" :
            count == 1 ? "the article has 1 chunk (1)" : "the article has \(count) chunks (1–\(count))"
        return NarrationError(.chunkIndexOutOfRange, "There is no chunk \(index.number): \(range).", subject: .chunk(index), remedy: .listChunks)
    }
}
