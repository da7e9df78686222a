/// What a volunteer can do about a failure, as a value: each front end says it its own way.
///
/// The command line renders a remedy as a sentence naming a command ("Run \"narrate devices\" to
/// list devices."); a web page can show a button that does it. The engine picks the remedy; it
/// never writes a command's name into a message.
public enum Remedy: Sendable, Equatable {
    /// There is no current article: start one, or name one.
    case startArticle
    /// The article named is not there: see the articles there are.
    case listArticles
    /// The chunk named is not there: see the chunks there are.
    case listChunks
    /// The article has no chunks: record one.
    case recordChunk
    /// The article's recordings were pruned after delivery: its delivered file is in the outbox.
    case showDeliveredFile
    /// The device named is not there: see the devices there are.
    case listDevices
    /// The device is in use by another program: close it, or pick another device.
    case chooseOtherDevice
    /// The device cannot record the article's format: make the article in one it can, or pick
    /// another device.
    case chooseSupportedFormat
    /// A chunk's file is missing or damaged: record it again or delete it; `then` is what the
    /// volunteer was doing and can do once it is mended.
    case replaceOrDeleteChunk(ChunkIndex, then: AfterMending)
    /// Nothing was sent, and the export stays in the outbox: sending again later may succeed.
    case sendOutboxLater
    /// The outbox job named is not there: see all the jobs, withdrawn ones too.
    case listOutboxJobs
    /// Another process is sending the article: wait, then look at the outbox.
    case waitThenShowOutbox
    /// Prune needs a confirmed delivery: submit the article first.
    case submitFirst
    /// The catalog needs bringing up to date, which any command that may write does.
    case openLibraryOnce
    /// A new article needs a title.
    case giveTitle
    /// Submitting needs a destination: name one in the settings, or give one when starting.
    case setDestination
    /// The export was queued without a destination: send it from the outbox, naming one.
    case pushOutboxTo
    /// The paragraph named is not there: see the article's paragraphs.
    case listParagraphs
    /// The article has no text: attach one.
    case attachText
    /// Every paragraph is read: re-read one, or add another chunk to one.
    case rereadOrContinue
    /// Paragraphs are not read: read them, skip them, or send the article as it is.
    case readSkipOrSendIncomplete(UnreadParagraphs)
    /// The paragraph is skipped: unskip it to read it.
    case unskipParagraph(Int)
    /// The article named is in the trash: undo brings it back; the history lists what was deleted.
    case undoDeletion
    /// No edit is left to undo: the history lists the edits.
    case showHistory
    /// Undo cannot take back a new text: attach the old text again. Nothing was changed.
    case attachOldText
    /// The punch's time is past the chunk's end: punch in within it, or insert a new chunk.
    case punchWithinChunk
    /// A trim's start and end must lie within the chunk: give them within it.
    case trimWithinChunk
    /// What was asked would keep nothing of the chunk: to remove it, delete the chunk instead.
    case deleteChunkInstead(ChunkIndex)
    /// The article's export waits undelivered: deliver it first, or delete the article anyway,
    /// which withdraws the export.
    case deliverOrDeleteAnyway

    /// What the volunteer can do after mending a chunk, in `replaceOrDeleteChunk`.
    public enum AfterMending: Sendable, Equatable {
        /// Nothing more to say.
        case nothing
        /// Play again, or play around the chunk meanwhile.
        case playAroundIt
        /// Export again.
        case exportAgain
    }
}
