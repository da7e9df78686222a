import NarrationCore

/// The page's words for a remedy: what to press or choose on the page, in plain words for a
/// volunteer who never opens a terminal (the terminal says the same with commands and flags).
enum WebRemedy {
    /// - Parameter canSend: whether a destination is set, so that the outbox's Retry can send.
    static func sentence(_ remedy: Remedy, canSend: Bool) -> String {
        switch remedy {
        case .startArticle: "Start an article with the New article button."
        case .giveTitle: "Give the article a title."
        case .listArticles: "Ask your reading service which article to open."
        case .listChunks, .listParagraphs: "The list on this page shows them."
        case .recordChunk: "Press Record to record one."
        case .showDeliveredFile, .listOutboxJobs, .waitThenShowOutbox: "The outbox on this page shows it."
        case .listDevices, .chooseOtherDevice, .chooseSupportedFormat:
            "Check the microphone is plugged in and no other program uses it, or choose this computer's microphone."
        case .replaceOrDeleteChunk(let index, _): "Record chunk \(index) again, or delete it."
        case .sendOutboxLater, .pushOutboxTo:
            canSend
                ? "It waits in the outbox; press Send now there to send it."
                : "It waits in the outbox until your reading service collects it or sets where files are sent."
        case .submitFirst: "Send it first."
        case .openLibraryOnce: "Then reload this page."
        case .setDestination: "Ask your reading service to set where files are sent; until then, Queue keeps it in the outbox."
        case .attachText: "Start a new article with its text file."
        case .rereadOrContinue: "Choose the paragraph and press Read again."
        case .readSkipOrSendIncomplete: "Read them, skip them, or send the article as it is."
        case .unskipParagraph: "Press Don't skip to read it."
        case .undoDeletion: "Undo in the terminal studio brings it back."
        case .showHistory: "Nothing was changed."
        case .attachOldText: "Start a new article with the old text to read it again. Nothing was changed."
        case .punchWithinChunk: "Pause inside the chunk and fix the slip from there, or insert a new chunk."
        case .trimWithinChunk: "Choose a start and an end within the chunk."
        case .deleteChunkInstead(let index): "To remove it, delete chunk \(index)."
        case .deliverOrDeleteAnyway: "Send it from the outbox on this page first."
        }
    }
}
