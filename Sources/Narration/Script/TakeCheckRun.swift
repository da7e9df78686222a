import Foundation
import NarrationAudio
public import NarrationCore
import SpeechRecognition

/// A chunk's take check as the catalog keeps it: what the check found, and whether the volunteer
/// dismissed its hints.
public struct TakeCheck: Sendable, Equatable {
    public let chunk: ChunkID
    public let report: TakeCheckReport
    public let dismissed: Bool
    /// The cuts (their numbers in `report.cuts`) the volunteer dismissed one by one.
    public let dismissedCuts: Set<Int>

    public init(chunk: ChunkID, report: TakeCheckReport, dismissed: Bool, dismissedCuts: Set<Int> = []) {
        self.chunk = chunk
        self.report = report
        self.dismissed = dismissed
        self.dismissedCuts = dismissedCuts
    }

    /// The hints the volunteer has not dismissed.
    public var openHints: [TakeHint] { dismissed ? [] : report.hints }

    /// The proposed cuts neither dismissed one by one nor with the take's hints, with their
    /// numbers in `report.cuts`.
    public var openCuts: [(number: Int, cut: ProposedCut)] {
        dismissed ? [] : report.cuts.enumerated().filter { !dismissedCuts.contains($0.offset) }.map { ($0.offset, $0.element) }
    }
}

/// The take check in the library: each take of an article with a text is checked once, after it
/// is committed, off the capture path (`record` starts it in a process of its own, the studio on
/// a thread of its own), and the report is kept in the catalog beside the chunk. Hints never
/// block anything.
extension NarrationLibrary {
    /// Checks every take of the article that reads a paragraph and has no check yet.
    /// - Parameters:
    ///   - language: the article's language (see `Settings.language`).
    ///   - only: the takes to check, when not every one (a job of the queue checks its own take:
    ///     `TakeCheckWork`); those already checked, deleted or reading no paragraph are left.
    /// - Returns: the checks made, in the article's order.
    /// - Throws: `speechRecognition` when the English model is missing or fails; the catalog's errors.
    @discardableResult
    public func checkTakes(of article: Article, language: String, only: Set<ChunkID>? = nil) throws(NarrationError) -> [TakeCheck] {
        let paragraphs = try catalog.paragraphs(of: article.id)
        guard !paragraphs.isEmpty else { return [] }
        let numbers = Dictionary(uniqueKeysWithValues: paragraphs.map { ($0.id, $0.number) })
        let unchecked = try uncheckedTakes(of: article, reading: Set(paragraphs.map(\.id))).filter { only?.contains($0.id) ?? true }
        guard !unchecked.isEmpty else { return [] }
        let checker = try TakeChecker(paragraphs: paragraphs.map(\.content), language: language)
        defer { checker.close() }
        var checks: [TakeCheck] = []
        for chunk in unchecked {
            guard let number = chunk.paragraphID.flatMap({ numbers[$0] }) else { continue }
            let file = root.chunkURL(chunk.id, of: article.id)
            // A take deleted or damaged meanwhile is not checked; its own commands say what is wrong.
            guard let samples = try? SoundFileReader(path: file.path).readAll() else { continue }
            let scale = 1 / Float(1 << 31)
            let mono = TakeChecker.mono(interleaved: samples.map { Float($0) * scale }, channels: article.format.channels)
            let median = try catalog.medianWordsPerMinute(narrator: article.narrator, excluding: chunk.id)
            let frames = SpeechFrames(cepstraOf: mono, sampleRate: article.format.sampleRate)
            let report = try checker.check(
                samples: mono, sampleRate: article.format.sampleRate, frames: frames, paragraphIndex: number - 1, narratorMedianRate: median)
            if try catalog.storeTakeCheck(report, for: chunk.id) {
                checks.append(TakeCheck(chunk: chunk.id, report: report, dismissed: false))
            }
        }
        return checks
    }

    /// The takes of the article that read a paragraph of its text and have no check yet, in the
    /// article's order: what `checkTakes` checks.
    public func uncheckedTakes(of article: Article) throws(NarrationError) -> [Chunk] {
        try uncheckedTakes(of: article, reading: Set(try catalog.paragraphs(of: article.id).map(\.id)))
    }

    /// `uncheckedTakes(of:)`, given the ids of the article's paragraphs.
    private func uncheckedTakes(of article: Article, reading paragraphs: Set<ParagraphID>) throws(NarrationError) -> [Chunk] {
        guard !paragraphs.isEmpty else { return [] }
        let checked = Set(try catalog.takeChecks(of: article.id).keys)
        return try catalog.chunks(of: article).filter { chunk in
            !checked.contains(chunk.id) && chunk.paragraphID.map(paragraphs.contains) == true
        }
    }

    /// Dismisses the hints of every take of paragraph `number`: the volunteer listened and the
    /// takes are fine. - Returns: how many takes had hints dismissed.
    public func dismissHints(ofParagraph number: Int, in article: Article) throws(NarrationError) -> Int {
        let plan = try catalog.readingPlan(of: article)
        let paragraph = try plan.paragraph(number)
        return try catalog.dismissTakeChecks(plan.chunks(of: paragraph.id))
    }

    /// Dismisses the hints of one take: the volunteer listened and it is fine. Kept in the
    /// catalog, so the take stays unflagged in every studio and after a restart.
    /// - Returns: whether the take had hints that were not dismissed yet.
    @discardableResult
    public func dismissHints(ofChunk chunk: ChunkID) throws(NarrationError) -> Bool {
        try catalog.dismissTakeChecks([chunk]) > 0
    }
}
