/// The fumbles in a take: where the reader went back and read again (each a `ProposedCut`) and
/// what they said that is not in the text (`notInText` hints), found from the words a
/// recogniser heard and the path they take through the paragraph (`ReadingPath`), and from the
/// stretches the take's sound says twice (`RepeatedSpeech`), which find most restarts the
/// recogniser's words miss.
///
/// A jump back in the path is a restart when the words are heard twice: at least
/// `Settings.wordsReadTwice` of the text's words heard in both attempts, or fewer with an aside
/// between, a broken-off word, or a long pause to show it. The cut runs from the pause before
/// the first attempt to the pause before the second (`LevelEnvelope.attemptOnset`, `cutPoint`);
/// a second attempt run on from the first without a pause begins where the two attempts' sound
/// aligns (`RepeatedSpeech.alignedStart`). Cuts that overlap are joined: one restart, one cut.
///
/// Pure logic; without an envelope the edges are the recogniser's word boundaries.
public struct Fumbles: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// The fewest of the text's words heard in both attempts that make a restart on their own.
        public var wordsReadTwice: Int
        /// A pause between attempts at least this long (seconds) shows a restart of fewer words.
        public var restartPause: Double
        /// The fewest words added outside any cut, in a row, that are "not in the text" without
        /// an aside among them (one unmistakable aside word, or two of the others).
        public var strayRun: Int
        public var costs: ReadingPath.Costs
        /// How stretches said twice are found from the take's sound.
        public var repeats: RepeatedSpeech.Settings

        public init(
            wordsReadTwice: Int = 2, restartPause: Double = 0.6, strayRun: Int = 5, costs: ReadingPath.Costs = ReadingPath.Costs(),
            repeats: RepeatedSpeech.Settings = RepeatedSpeech.Settings()
        ) {
            self.wordsReadTwice = wordsReadTwice
            self.restartPause = restartPause
            self.strayRun = strayRun
            self.costs = costs
            self.repeats = repeats
        }
    }

    public let cuts: [ProposedCut]
    /// `notInText` hints, by time.
    public let strays: [TakeHint]
    /// The heard words that are asides or strays (indices into the heard words): they are not
    /// the paragraph's words misheard, so they do not count as speech where words are unheard.
    public let notText: Set<Int>

    /// - Parameters:
    ///   - heard: the words recognised in the take.
    ///   - text: the paragraph's words the recogniser can hear, in order.
    ///   - envelope: the take's levels, to place the cuts' edges; nil places them at the
    ///     recogniser's word boundaries.
    ///   - repeats: the stretches said twice found from the take's sound (`RepeatedSpeech`);
    ///     each becomes a cut too, with its edges at the two attempts' onsets, unless a cut
    ///     from the words already covers it (that cut then takes the sound's edges).
    ///   - frames: the take's `SpeechFrames`, to place a second attempt that runs on from the
    ///     first without a pause (`RepeatedSpeech.alignedStart`); nil leaves it at the
    ///     recogniser's word.
    public init(
        heard: [RecognisedWord], text: [String], envelope: LevelEnvelope?, sampleRate: Int, settings: Settings = Settings(),
        repeats: [RepeatedSpeech.Repeat] = [], frames: SpeechFrames? = nil
    ) {
        let path = ReadingPath(heard: heard.map(\.word), text: text, costs: settings.costs)
        /// A cut found, the heard words inside it, and whether its edges come from the sound.
        struct Found {
            var cut: ProposedCut
            var heard: Range<Int>
            var fromSound: Bool
        }
        var found: [Found] = []
        for (number, jump) in path.jumps.enumerated() {
            let passStart = number == 0 ? 0 : path.jumps[number - 1].heard
            let passEnd = jump.heard
            let nextEnd = number + 1 < path.jumps.count ? path.jumps[number + 1].heard : heard.count
            guard passEnd < heard.count, passStart < passEnd else { continue }
            // Where the second attempt really starts: its first two words in a row read as the
            // first attempt read them. A recogniser that hears an aside as text words ("the
            // start again") makes the path jump back too soon; those words go with the cut.
            var target = jump.to
            var resume = passEnd
            func readAt(_ index: Int) -> Int? {
                guard index < nextEnd, case .read(let position, true) = path.steps[index] else { return nil }
                return position
            }
            let firstPass: Set<Int> = Set((passStart..<passEnd).compactMap(readAt))
            for index in passEnd..<nextEnd {
                if let position = readAt(index), let next = readAt(index + 1), next == position + 1, firstPass.contains(position) {
                    target = position
                    resume = index
                    break
                }
            }
            // The first attempt: from the first word of this pass read at or after the target.
            guard let first = (passStart..<passEnd).first(where: { index in
                if case .read(let position, _) = path.steps[index] { return position >= target }
                return false
            }) else { continue }
            var firstRead: Set<Int> = []
            var furthest = target
            var lastRead = -1
            var aside: [String] = []
            for index in first..<passEnd {
                switch path.steps[index] {
                case .read(let position, let matched):
                    if matched { firstRead.insert(position) }
                    furthest = max(furthest, position)
                    lastRead = index
                case .added:
                    if AsideWords.words.contains(heard[index].word) { aside.append(heard[index].word) }
                }
            }
            for index in passEnd..<resume where AsideWords.words.contains(heard[index].word) { aside.append(heard[index].word) }
            var secondRead: Set<Int> = []
            for index in resume..<nextEnd {
                if case .read(let position, true) = path.steps[index] { secondRead.insert(position) }
            }
            let twice = firstRead.intersection(secondRead).count
            // Broken off: the first attempt's last word before anything added is misheard or added.
            let brokenOff: Bool = {
                guard lastRead >= 0, case .read(_, let matched) = path.steps[lastRead] else { return true }
                return !matched || (lastRead + 1 < passEnd && !AsideWords.words.contains(heard[lastRead + 1].word))
            }()
            let pause = heard[resume].start - heard[resume - 1].end
            let shown = twice >= settings.wordsReadTwice || (twice >= 1 && (!aside.isEmpty || brokenOff || pause >= settings.restartPause))
            guard shown else { continue }
            let before = first > 0 ? heard[first - 1].end : 0
            let between = heard[resume - 1].end
            let startFrame: Int, endFrame: Int
            if let envelope {
                let firstOnset = envelope.attemptOnset(near: heard[first].start, notBefore: before)
                var secondOnset = envelope.attemptOnset(near: heard[resume].start, notBefore: between)
                // Run on from the first attempt without a pause, the second begins where its
                // sound aligns best with the first's: it moves a cut's edge, never makes a cut.
                if let frames, secondOnset > firstOnset, !envelope.followsPause(secondOnset),
                    let aligned = RepeatedSpeech.alignedStart(of: firstOnset, near: secondOnset, frames: frames, sameness: settings.repeats.sameness) {
                    secondOnset = aligned
                }
                startFrame = envelope.cutPoint(before: firstOnset, notBefore: before)
                endFrame = envelope.cutPoint(before: secondOnset, notBefore: between)
            } else {
                startFrame = Int((heard[first].start * Double(sampleRate)).rounded())
                endFrame = Int((heard[resume].start * Double(sampleRate)).rounded())
            }
            guard endFrame > startFrame else { continue }
            let cut = ProposedCut(
                kind: twice >= settings.wordsReadTwice || !brokenOff ? .restart : .falseStart,
                words: text[target...min(furthest, text.count - 1)].joined(separator: " "), aside: aside.joined(separator: " "),
                startFrame: startFrame, endFrame: endFrame, sampleRate: sampleRate)
            found.append(Found(cut: cut, heard: first..<resume, fromSound: false))
        }
        // The stretches said twice by their sound: where they overlap a cut from the words,
        // their edges (the words may be misheard); elsewhere a cut of their own.
        for said in repeats {
            let startFrame: Int, endFrame: Int
            if let envelope {
                startFrame = envelope.cutPoint(before: said.first, notBefore: said.first - 0.15)
                endFrame = envelope.cutPoint(before: said.second, notBefore: said.second - 0.15)
            } else {
                startFrame = Int((said.first * Double(sampleRate)).rounded())
                endFrame = Int((said.second * Double(sampleRate)).rounded())
            }
            guard endFrame > startFrame else { continue }
            let inside = heard.indices.filter { heard[$0].start >= said.first - 0.05 && heard[$0].start < said.second - 0.05 }
            let overlapping = found.indices.filter {
                !found[$0].fromSound && found[$0].cut.startFrame < endFrame && startFrame < found[$0].cut.endFrame
            }
            if let kept = overlapping.first {
                found[kept].cut.setEdges(startFrame, endFrame, sampleRate: sampleRate)
                if let range = inside.first.map({ $0..<(inside.last! + 1) }) { found[kept].heard = range }
                found[kept].fromSound = true
                // The words may show one restart as two jumps; the sound shows it once.
                for index in overlapping.dropFirst().reversed() { found.remove(at: index) }
                continue
            }
            // Its words: those of the text read in the second attempt as long as the first.
            let again = heard.indices.filter { heard[$0].start >= said.second - 0.05 && heard[$0].start < said.second + said.matched }
            let words = again.compactMap { index -> String? in
                if case .read(let position, true) = path.steps[index] { return text[position] }
                return nil
            }
            let cut = ProposedCut(
                kind: .restart, words: (words.isEmpty ? again.map { heard[$0].word } : words).joined(separator: " "),
                aside: inside.map { heard[$0].word }.filter(AsideWords.words.contains).joined(separator: " "),
                startFrame: startFrame, endFrame: endFrame, sampleRate: sampleRate)
            found.append(Found(cut: cut, heard: inside.first.map { $0..<(inside.last! + 1) } ?? 0..<0, fromSound: true))
        }
        // One restart found twice (a sound repeat over two cuts from the words, say) is one cut:
        // overlapping cuts join, keeping the longer one's words, since cuts are taken out together.
        var joined: [Found] = []
        for next in found.sorted(by: { $0.cut.startFrame < $1.cut.startFrame }) {
            guard let last = joined.last, next.cut.startFrame < last.cut.endFrame else {
                joined.append(next)
                continue
            }
            var union = last.cut.frames.count >= next.cut.frames.count ? last : next
            union.cut.setEdges(last.cut.startFrame, max(last.cut.endFrame, next.cut.endFrame), sampleRate: sampleRate)
            union.heard = next.heard.isEmpty ? last.heard
                : last.heard.isEmpty ? next.heard : min(last.heard.lowerBound, next.heard.lowerBound)..<max(last.heard.upperBound, next.heard.upperBound)
            joined[joined.count - 1] = union
        }
        cuts = joined.map(\.cut)
        let cutHeard = joined.map(\.heard)

        // Words added outside the cuts: runs with an aside word, or long runs.
        var strays: [TakeHint] = []
        var notText: Set<Int> = []
        var run: [Int] = []
        func finish() {
            defer { run = [] }
            guard !run.isEmpty else { return }
            // An aside heard with little confidence is as likely noise the recogniser named.
            let asides = run.filter { AsideWords.words.contains(heard[$0].word) && heard[$0].confidence >= 0.5 }
            let unmistakable = asides.contains { AsideWords.unmistakable.contains(heard[$0].word) }
            guard unmistakable || asides.count >= 2 || run.count >= settings.strayRun else { return }
            notText.formUnion(run)
            strays.append(TakeHint(.notInText, words: run.map { heard[$0].word }.joined(separator: " "), seconds: heard[run[0]].start))
        }
        for (index, step) in path.steps.enumerated() {
            let inCut = cutHeard.contains { $0.contains(index) }
            if inCut {
                if AsideWords.words.contains(heard[index].word), case .added = step { notText.insert(index) }
                finish()
                continue
            }
            if case .added = step { run.append(index) } else { finish() }
        }
        finish()
        self.strays = strays
        self.notText = notText
    }
}
