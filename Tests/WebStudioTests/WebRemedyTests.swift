import NarrationCore
import Testing
@testable import WebStudio

/// The page's words for a remedy name buttons and plain actions, never the command line's.
@Suite("The page's words for a remedy")
struct WebRemedyTests {
    static let remedies: [Remedy] = [
        .startArticle, .listArticles, .listChunks, .recordChunk, .showDeliveredFile, .listDevices, .chooseOtherDevice,
        .chooseSupportedFormat, .replaceOrDeleteChunk(ChunkIndex(position: 1), then: .exportAgain), .sendOutboxLater, .listOutboxJobs,
        .waitThenShowOutbox, .submitFirst, .openLibraryOnce, .giveTitle, .setDestination, .pushOutboxTo, .listParagraphs, .attachText,
        .rereadOrContinue, .unskipParagraph(3), .undoDeletion, .showHistory, .attachOldText, .punchWithinChunk, .trimWithinChunk,
        .deleteChunkInstead(ChunkIndex(position: 1)), .deliverOrDeleteAnyway,
    ]

    @Test("no remedy on the page names a flag or a narrate command", arguments: remedies, [true, false])
    func plainWords(remedy: Remedy, canSend: Bool) {
        let words = WebRemedy.sentence(remedy, canSend: canSend)
        #expect(!words.isEmpty)
        #expect(!words.contains("--") && !words.contains("narrate "), "\(words)")
    }

    @Test("a failure naming a field reaches the page in plain words")
    func entryInPlainWords() {
        let error = NarrationError(
            .usage, naming: "\(.trimStart) 00:00:00.800 is not before \(.trimEnd) 00:00:00.200: that keeps nothing of chunk 2.",
            remedy: .deleteChunkInstead(ChunkIndex(position: 1)))
        #expect(PageState.sentence(error, canSend: false) == "The start 00:00:00.800 is not before the end 00:00:00.200: that keeps nothing of chunk 2. To remove it, delete chunk 2.")
    }
}
