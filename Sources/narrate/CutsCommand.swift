import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate cuts`: the restarts the take check found, to hear, accept or dismiss.
    struct Cuts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the restarts the take check found, hear them, and cut them or leave them.",
            discussion: """
                When you stumble, say the sentence again and carry on: the take check finds \
                where you went back and proposes a cut from the pause before your first try to \
                the pause before the second. Each cut is numbered as this list shows it.

                  narrate cuts                   # what was found, in order
                  narrate cuts --listen 1        # hear cut 1 as read, then as cut
                  narrate cuts --accept 1        # cut it (narrate undo brings it back)
                  narrate cuts --dismiss 2       # leave the take as it is there
                  narrate cuts --accept-all      # cut every one listed

                A cut is joined with a 10 ms crossfade; the old take goes to the article's \
                trash, so undo brings it back byte for byte. Takes are checked after they are \
                recorded (narrate script --check checks any left).
                """)

        @Option(name: .customLong("listen"), parsing: .unconditional, help: ArgumentHelp("Play cut N's surroundings as read, then as cut.", valueName: "N"))
        var listen: Int?

        @Option(name: .customLong("accept"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Make cut N (repeat for several).", valueName: "N"))
        var accept: [Int] = []

        @Flag(name: .customLong("accept-all"), help: "Make every cut listed.")
        var acceptAll = false

        @Option(name: .customLong("dismiss"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Leave the take as it is at cut N (repeat for several).", valueName: "N"))
        var dismiss: [Int] = []

        @Option(help: ArgumentHelp("The ALSA playback device for --listen (default: device in config.toml, else \"default\").", valueName: "PCM"))
        var device: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Seconds heard either side of the cut with --listen, 0.5 to 10.", valueName: "S"))
        var context = 2.5

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func validate() throws {
            for number in accept + dismiss + (listen.map { [$0] } ?? []) where number < 1 {
                throw ValidationError("Cut \(number) is not a cut: cuts are numbered from 1, as narrate cuts lists them.")
            }
            let actions = (accept.isEmpty ? 0 : 1) + (acceptAll ? 1 : 0) + (dismiss.isEmpty ? 0 : 1) + (listen == nil ? 0 : 1)
            if actions > 1 {
                throw ValidationError("Give one of --listen, --accept, --accept-all or --dismiss at a time.")
            }
            if !Set(accept).isDisjoint(with: dismiss) { throw ValidationError("A cut cannot be both accepted and dismissed.") }
            guard (0.5...10).contains(context) else { throw ValidationError("--context \(Console.number(context)) is out of range: give 0.5 to 10 seconds.") }
        }

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            try await CommandRunner.bringChunksHome(of: target.article)
            try runHere()
        }

        func runHere() throws {
            let device = try self.device ?? CommandRunner.settings().device
            let (cuts, done) = try CommandRunner.withLibrary { (library) throws(NarrationError) in
                let article = try library.article(target.article)
                let cuts = try library.proposedCuts(of: article)
                func chosen(_ numbers: [Int]) throws(NarrationError) -> [TakeCut] {
                    var picked: [TakeCut] = []
                    for number in numbers {
                        guard cuts.indices.contains(number - 1) else {
                            let have = cuts.isEmpty ? "there are no cuts" : cuts.count == 1 ? "there is 1 cut" : "there are \(cuts.count) cuts"
                            throw NarrationError(.usage, "There is no cut \(number): \(have) (see narrate cuts).")
                        }
                        picked.append(cuts[number - 1])
                    }
                    return picked
                }
                var done: [String] = []
                if let listen {
                    let cut = try chosen([listen])[0]
                    let preview = try library.cutPreview(cut.number, ofChunk: cut.chunk, of: article, context: context)
                    Console.error("Cut \(listen), as read: \(cut.cut)")
                    try preview.play(asCut: false, device: device)
                    Console.error("And as cut:")
                    try preview.play(asCut: true, device: device)
                } else if !dismiss.isEmpty {
                    for cut in try chosen(dismiss) where try library.dismissCut(cut.number, ofChunk: cut.chunk) {
                        done.append("Left chunk \(cut.index.number) as it is at \(String(format: "%.1f", cut.cut.start)) s.")
                    }
                } else if acceptAll || !accept.isEmpty {
                    let picked = acceptAll ? cuts : try chosen(accept)
                    var byTake: [ChunkID: Set<Int>] = [:]
                    var order: [ChunkID] = []
                    for cut in picked {
                        if byTake[cut.chunk] == nil { order.append(cut.chunk) }
                        byTake[cut.chunk, default: []].insert(cut.number)
                    }
                    for chunk in order {
                        guard let result = try library.acceptCuts(byTake[chunk], ofChunk: chunk, of: article) else { continue }
                        let what = result.cuts == 1 ? "1 restart" : "\(result.cuts) restarts"
                        done.append("Cut \(what) from chunk \(result.index.number): \(Timecode.precise(article.format.seconds(result.framesCut))) taken out.")
                        if let withdrawn = result.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
                    }
                    if !done.isEmpty { done.append("narrate undo brings a take back as it was.") }
                }
                let left = (listen == nil && (acceptAll || !accept.isEmpty || !dismiss.isEmpty)) ? try library.proposedCuts(of: article) : cuts
                return (left, done)
            }
            if output.json {
                Console.printJSON(CutsJSON(done: done, cuts: cuts.enumerated().map { CutJSON(number: $0.offset + 1, $0.element) }))
                return
            }
            for line in done { Console.print(line) }
            guard listen == nil else { return }
            if cuts.isEmpty {
                Console.print(done.isEmpty ? "No restarts found: no cut is proposed." : "No cut is left to decide.")
                return
            }
            if !done.isEmpty { Console.print("Still to decide:") }
            for (offset, cut) in cuts.enumerated() {
                let paragraph = cut.paragraph.map { ", paragraph \($0)" } ?? ""
                Console.print("\(offset + 1). chunk \(cut.index.number)\(paragraph): \(cut.cut)")
            }
        }
    }
}

/// What `cuts --json` prints: what was done, and the cuts still proposed.
private struct CutsJSON: Encodable {
    let done: [String]
    let cuts: [CutJSON]
}

private struct CutJSON: Encodable {
    let number: Int
    let chunk: Int
    let paragraph: Int?
    let kind: String
    let words: String
    let aside: String
    let start: Double
    let end: Double
    let startFrame: Int
    let endFrame: Int
    let description: String

    init(number: Int, _ cut: TakeCut) {
        self.number = number
        chunk = cut.index.number
        paragraph = cut.paragraph
        kind = cut.cut.kind.rawValue
        words = cut.cut.words
        aside = cut.cut.aside
        start = cut.cut.start
        end = cut.cut.end
        startFrame = cut.cut.startFrame
        endFrame = cut.cut.endFrame
        description = cut.cut.description
    }
}
