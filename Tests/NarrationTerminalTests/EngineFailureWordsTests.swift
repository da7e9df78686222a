import NarrationCore
import NarrationTerminal
import Testing

/// The engine says what happened in plain words, naming fields and remedies as values; the
/// terminal says the same with narrate's flags and commands, in the words it always used.
@Suite("An engine failure in plain words and in the terminal's")
struct EngineFailureWordsTests {
    @Test("a date that is not a day: \"the date\" in plain words, --date in the terminal's")
    func listenerDate() {
        #expect(throws: NarrationError.self) { try ListenerDate.parse(" 2026-02-29 ") }
        do {
            _ = try ListenerDate.parse(" 2026-02-29 ")
        } catch {
            #expect(error.message == "The date 2026-02-29 is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.")
            #expect(error.sentence == "--date 2026-02-29 is not a day: give it as YYYY-MM-DD, e.g. 2026-11-23.")
            #expect(error.exitStatus == 64)
        }
    }

    @Test("a trim that keeps nothing names its start and end, and deleting the chunk instead")
    func trimKeepsNothing() {
        let error = NarrationError(
            .usage, naming: "\(.trimStart) 00:00:00.800 is not before \(.trimEnd) 00:00:00.200: that keeps nothing of chunk 1.",
            remedy: .deleteChunkInstead(ChunkIndex(position: 0)))
        #expect(error.message == "The start 00:00:00.800 is not before the end 00:00:00.200: that keeps nothing of chunk 1.")
        #expect(error.sentence == "--start 00:00:00.800 is not before --end 00:00:00.200: that keeps nothing of chunk 1; to remove it, use narrate delete-chunk 1.")
    }

    @Test("the terminal's remedies join the engine's sentence as they always read", arguments: [
        (NarrationError(.usage, "Chunk 2 is 00:00:03.000 long.", remedy: .trimWithinChunk), "Chunk 2 is 00:00:03.000 long; give --start and --end within it."),
        (NarrationError(.articleBusy, "The article \"Queued\" is queued (job j1) and not delivered yet.", remedy: .deliverOrDeleteAnyway),
         "The article \"Queued\" is queued (job j1) and not delivered yet: deliver it first (narrate outbox push), or delete it anyway with --force, which withdraws the export."),
        (NarrationError(.usage, "There is nothing to undo: no edit of the article is left to reverse.", remedy: .showHistory),
         "There is nothing to undo: no edit of the article is left to reverse (narrate history lists them)."),
        (NarrationError(.chunkFileMissing, "The file of chunk 3 (/d/c.wav) is missing. Nothing was changed.", remedy: .replaceOrDeleteChunk(ChunkIndex(position: 2), then: .nothing)),
         "The file of chunk 3 (/d/c.wav) is missing. Nothing was changed. Re-record it (narrate record --replace 3) or delete it."),
    ])
    func remedies(error: NarrationError, terminal: String) {
        #expect(error.sentence == terminal)
        #expect(!error.message.contains("--") && !error.message.contains("narrate "), "\(error.message)")
    }

    @Test("a message naming no field is the same for every front end")
    func plainMessage() {
        let error = NarrationError(.usage, "The title is empty.", remedy: .giveTitle)
        #expect(error.fieldMessage == nil)
        #expect(error.message(naming: \.commandLine) == "The title is empty.")
    }
}
