import Foundation
@testable import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
@testable import Studio
import Testing

/// The restarts the take check proposes to cut, in the studio session: listed, heard through the
/// studio's speaker, left or cut (one edit, which undo takes back byte for byte). The take is a
/// tone recorded through the in-memory microphone; its check is stored as the check would store
/// it, so that no speech recognition runs.
@Suite("Studio: proposed cuts")
struct StudioCutsTests {
    typealias Session = StudioTests.Session

    /// 3 s of tone at 44.1 kHz: 132,300 frames.
    static let takeFrames = 132_300
    /// A restart from 0.5 s to 1.0 s, and a false start with an aside from 1.5 s to 2.25 s.
    static let restart = ProposedCut(kind: .restart, words: "the council adopted", aside: "", startFrame: 22_050, endFrame: 44_100, sampleRate: 44_100)
    static let falseStart = ProposedCut(
        kind: .falseStart, words: "the bud", aside: "sorry", startFrame: 66_150, endFrame: 99_225, sampleRate: 44_100)

    /// A studio on an article with a text, its first paragraph read in one take of 3 s whose check
    /// proposes `cuts`; the studio shows them.
    static func session(cuts: [ProposedCut] = [restart, falseStart], pacedPlayback: Bool = false) throws -> (Session, Article, Chunk) {
        let session = try Session(text: StudioTests.text, pacedPlayback: pacedPlayback)
        let article = try #require(session.article)
        session.recordTake(seconds: 3)
        let chunk = try #require(try session.library.catalog.chunks(of: article).first)
        let report = TakeCheckReport(hints: [], cuts: cuts, sentenceCues: [], rate: SpeakingRate(words: 6, speechSeconds: 3), recognised: true)
        #expect(try session.library.catalog.storeTakeCheck(report, for: chunk.id))
        session.studio.openArticle(article)
        return (session, article, chunk)
    }

    @Test("t lists the cuts with their sentences, under the paragraph and in the chunk's row; n leaves one for good, y cuts the other: the chunk is shorter by exactly its frames; u brings the take back byte for byte")
    func leaveOneCutTheOther() async throws {
        let (session, article, chunk) = try Self.session()
        let library = session.library
        #expect(chunk.frames == Self.takeFrames)
        let file = library.root.chunkURL(chunk.id, of: article.id)
        let original = try Data(contentsOf: file)
        let originalSamples = try SoundFileReader(path: file.path).readAll()

        #expect(session.state.cuts.map(\.sentence) == [
            "at 0.5 s: “the council adopted” read twice: cut 0.50–1.00 s",
            "at 1.5 s: “the bud” broken off and begun again (“sorry” between): cut 1.50–2.25 s",
        ])
        #expect(session.state.cuts.map(\.number) == [0, 1])
        #expect(session.state.cuts.allSatisfy { $0.take == chunk.id && $0.chunk == ChunkIndex(1) && $0.paragraph == 1 })
        #expect(session.state.chunks.map(\.cuts) == [2])
        // The pane went on to paragraph 2; back on paragraph 1 its take's cuts show under it.
        #expect(session.state.reading?.number == 2 && session.state.reading?.cuts == [])
        session.press(.character("p"))
        #expect(session.state.reading?.number == 1 && session.state.reading?.cuts == session.state.cuts)

        session.press(.character("t"))
        #expect(session.state.panel == .cuts(selection: 0))
        session.press(.down)
        #expect(session.state.panel == .cuts(selection: 1))
        session.press(.up, .character("n"))
        #expect(session.state.notice?.text == "Chunk 1 is left as it is at 0.50 s: that cut is no longer proposed.")
        #expect(session.state.cuts.map(\.number) == [1])
        #expect(session.state.panel == .cuts(selection: 0))
        #expect(try library.catalog.takeChecks(of: article.id)[chunk.id]?.dismissedCuts == [0])
        #expect(try Data(contentsOf: file) == original, "leaving a cut changes nothing in the take")
        // Kept in the catalog: another studio shows only the other cut.
        #expect(session.another(on: article).state.cuts.map(\.number) == [1])

        session.press(.character("y"))
        #expect(session.state.notice?.text == "Cut 0.75 s out of chunk 1 where words were read again; it is 2.25 s now. Press u to undo.")
        let cut = try #require(try library.catalog.chunks(of: article).first)
        #expect(cut.id != chunk.id)
        #expect(cut.frames == Self.takeFrames - Self.falseStart.frames.count)
        #expect(session.state.chunks.map(\.duration) == [Double(Self.takeFrames - 33_075) / 44_100])
        #expect(session.state.header?.duration == Double(Self.takeFrames - 33_075) / 44_100)
        #expect(session.state.cuts.isEmpty && session.state.chunks.map(\.cuts) == [0])
        #expect(session.state.panel == .chunks, "with no cut left the list closes")
        // The new take is the old one up to the cut and from its end, joined by a 10 ms crossfade
        // (441 frames): sample for sample the same but for the 441 frames either side of the join.
        let cutSamples = try SoundFileReader(path: library.root.chunkURL(cut.id, of: article.id).path).readAll()
        #expect(cutSamples.count == originalSamples.count - 33_075)
        #expect(Array(cutSamples[..<(66_150 - 441)]) == Array(originalSamples[..<(66_150 - 441)]))
        #expect(Array(cutSamples.suffix(Self.takeFrames - 99_225 - 441)) == Array(originalSamples.suffix(Self.takeFrames - 99_225 - 441)))
        #expect(try Data(contentsOf: library.root.trashedChunkURL(chunk.id, of: article.id)) == original, "the old take waits in the trash")

        session.press(.character("u"))
        #expect(session.state.notice?.text.hasPrefix("Undone: Cut 1 restart from chunk 1: 00:00:00.750 taken out") == true, "\(String(describing: session.state.notice))")
        let back = try #require(try library.catalog.chunks(of: article).first)
        #expect(back.id == chunk.id && back.frames == Self.takeFrames)
        #expect(try Data(contentsOf: library.root.chunkURL(back.id, of: article.id)) == original, "undo brings the take back byte for byte")
        #expect(session.state.chunks.map(\.duration) == [3.0] && session.state.header?.duration == 3.0)
    }

    @Test("a cuts every restart of the take in one edit, shorter by both; u brings the take back byte for byte")
    func cutAll() async throws {
        let (session, article, chunk) = try Self.session()
        let library = session.library
        let original = try Data(contentsOf: library.root.chunkURL(chunk.id, of: article.id))
        session.press(.character("t"), .character("a"))
        #expect(session.state.notice?.text == "Cut 2 restarts out of chunk 1: 1.25 s taken out in all. Press u to undo.")
        let cut = try #require(try library.catalog.chunks(of: article).first)
        #expect(cut.frames == Self.takeFrames - 22_050 - 33_075)
        #expect(session.state.cuts.isEmpty && session.state.panel == .chunks)
        session.press(.character("u"))
        let back = try #require(try library.catalog.chunks(of: article).first)
        #expect(back.id == chunk.id)
        #expect(try Data(contentsOf: library.root.chunkURL(back.id, of: article.id)) == original)
        #expect(session.state.chunks.map(\.duration) == [3.0])
    }

    @Test("l and c play the cut's surroundings through the studio's speaker: as read the whole stretch, as cut the same without the restart")
    func listen() async throws {
        let (session, article, chunk) = try Self.session()
        let preview = try session.library.cutPreview(1, ofChunk: chunk.id, of: article)
        #expect(preview.asRead.count == Self.takeFrames, "2.5 s either side of 1.50–2.25 s reach both ends of the 3 s take")
        #expect(preview.asCut.count == preview.asRead.count - 33_075)
        session.press(.character("t"), .down)
        // Performed without a tick: the unpaced speaker hears it all at once, and the next tick sees it over.
        session.studio.perform(try #require(session.state.action(for: .character("l"))))
        let chosen = try #require(session.state.cuts.last)
        #expect(session.state.activity == .listening(chosen, asCut: false))
        #expect(session.state.notice?.text == "Hearing chunk 1 at 1.50 s as read: 2.50 s before the restart, the restart, 2.50 s after. Esc stops.")
        await session.run { $0.activity == .ready }
        #expect(session.state.notice?.text == "Heard chunk 1 at 1.50 s as read. y cuts it, n leaves it as it is.")
        #expect(try #require(session.devices.speaker).samples == preview.asRead)
        session.studio.perform(try #require(session.state.action(for: .character("c"))))
        #expect(session.state.activity == .listening(chosen, asCut: true))
        await session.run { $0.activity == .ready }
        let speaker = try #require(session.devices.speaker)
        #expect(session.devices.speakers.count == 2 && speaker.samples == preview.asCut && speaker.isClosed)
        #expect(try session.library.catalog.chunks(of: article).first?.id == chunk.id, "listening changes nothing")
    }

    @Test("Esc while a cut plays stops it at once; the list stays, and Esc again closes it")
    func stopListening() async throws {
        let (session, _, _) = try Self.session(pacedPlayback: true)
        session.press(.character("t"), .character("l"))
        await session.run { _ in (session.devices.speaker?.frames ?? 0) > 0 }
        #expect(session.state.isListening)
        session.press(.escape)
        #expect(session.state.activity == .ready)
        #expect(session.state.notice?.text == "Stopped hearing chunk 1 at 0.50 s.")
        #expect(session.state.panel == .cuts(selection: 0))
        let speaker = try #require(session.devices.speaker)
        speaker.hear(frames: 4_410)  // the write waiting for room goes on, and sees the stop
        await session.run { _ in speaker.isClosed }
        #expect(speaker.isClosed && speaker.frames < Self.takeFrames)
        session.press(.escape)
        #expect(session.state.panel == .chunks)
    }

    @Test("a cut left by another command meanwhile is not cut: the studio says so and shows the cuts as they are")
    func staleCut() async throws {
        let (session, article, chunk) = try Self.session(cuts: [Self.restart])
        session.press(.character("t"))
        #expect(try session.library.dismissCut(0, ofChunk: chunk.id))
        session.press(.character("y"))
        #expect(session.state.notice == StudioState.Notice("That cut was made or left already: nothing was cut.", isProblem: true))
        #expect(try session.library.catalog.chunks(of: article).first?.id == chunk.id)
        #expect(session.state.cuts.isEmpty && session.state.panel == .chunks)
    }

    @Test("t without cuts says there are none; in the list the keys say what they do")
    func keys() async throws {
        let session = try Session(text: StudioTests.text)
        session.recordTake(seconds: 0.3)
        session.press(.character("t"))
        #expect(session.state.notice?.text == "The take check proposes no cut: it found no place where words were read again.")
        #expect(session.state.panel == .chunks)
        var state = session.state
        state.cuts = [.init(take: ChunkID("k3v9"), chunk: ChunkIndex(1), paragraph: 1, number: 0, sentence: "at 0.5 s: …", start: 0.5, end: 1)]
        state.panel = .cuts(selection: 0)
        #expect(state.action(for: .character("l")) == .listenToCut(take: ChunkID("k3v9"), number: 0, asCut: false))
        #expect(state.action(for: .character("c")) == .listenToCut(take: ChunkID("k3v9"), number: 0, asCut: true))
        #expect(state.action(for: .character("y")) == .acceptCut(take: ChunkID("k3v9"), number: 0))
        #expect(state.action(for: .character("n")) == .dismissCut(take: ChunkID("k3v9"), number: 0))
        #expect(state.action(for: .character("a")) == .acceptAllCuts)
        #expect(state.action(for: .character("u")) == .undo)
        #expect(state.action(for: .escape) == .cancel)
        #expect(state.action(for: .character("x"))
            == .explain("↑ ↓ choose a cut; l hears it as read, c as cut; y cuts it, n leaves it; a cuts them all; Esc goes back."))
        state.activity = .listening(state.cuts[0], asCut: false)
        #expect(state.action(for: .escape) == .stopListening)
    }

    @Test("when a take's check finds restarts, the notice says how many and that t lists them, alone or after the first hint")
    func checkNotice() {
        let take = ChunkID("k3v9")
        let cuts = TakeCheckReport(hints: [], cuts: [Self.restart, Self.falseStart], sentenceCues: [], rate: SpeakingRate(words: 6, speechSeconds: 3), recognised: true)
        let plan = StudioReadingPlan()
        #expect(plan.notice(for: [TakeCheck(chunk: take, report: cuts, dismissed: false)], chunks: StudioChunks())?.text
            == "The take check found 2 places where words were read again: press t to hear them and cut them.")
        var one = cuts
        one.cuts = [Self.restart]
        one.hints = [TakeHint(.notInText, words: "sorry", seconds: 1.2)]
        let text = plan.notice(for: [TakeCheck(chunk: take, report: one, dismissed: false)], chunks: StudioChunks())?.text
        #expect(text?.hasPrefix("A take may need a listen: at 1.2 s: not in the text: “sorry”.") == true, "\(String(describing: text))")
        #expect(text?.hasSuffix(" It also found a place where words were read again: press t to hear it and cut it.") == true)
        var none = cuts
        none.cuts = []
        #expect(plan.notice(for: [TakeCheck(chunk: take, report: none, dismissed: false)], chunks: StudioChunks()) == nil)
    }
}

