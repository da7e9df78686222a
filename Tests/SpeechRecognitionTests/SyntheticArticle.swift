import Foundation
import NarrationAudio
import NarrationCore
import SpeechRecognition

/// A newspaper article of known text read by espeak-ng, which says exactly what it is given:
/// each sentence synthesised on its own, converted by sox to the articles' format (44.1 kHz mono
/// 16-bit) and joined in memory, so that where each sentence lies in a take is known to the sample.
struct SyntheticArticle {
    static let paragraphs: [ScriptParagraph] = [
        ScriptParagraph(kind: .heading, text: "River town weighs the cost of a new flood wall"),
        ScriptParagraph(kind: .paragraph, text: "The town council of Millbrook met on Tuesday evening to debate a plan that would raise a concrete wall along the eastern bank of the river. Supporters say the barrier would protect hundreds of homes from the floods that have struck the valley three times in the past decade. Opponents argue that the price is too high for a town of its size."),
        ScriptParagraph(kind: .paragraph, text: "Engineers hired by the council presented drawings that show the wall running from the old mill to the railway bridge. The structure would stand about two metres tall and include gates that can be closed when the water rises. Construction could begin next spring if the county approves the funding."),
        ScriptParagraph(kind: .paragraph, text: "Many residents who attended the meeting spoke about the damage they suffered during the last flood. A baker on Mill Street described how muddy water filled her shop and ruined ovens, flour and furniture. She said she could not afford to rebuild a second time."),
        ScriptParagraph(kind: .paragraph, text: "Not everyone in the crowded hall welcomed the proposal. Several farmers warned that a wall on one bank would push more water onto their fields on the opposite side. A retired teacher asked whether planting trees and restoring wetlands upstream might offer a cheaper and gentler solution."),
        ScriptParagraph(kind: .paragraph, text: "The mayor, Helen Carter, told the audience that the council had studied several options over the past year. She admitted that no single measure would remove every risk, but she insisted that doing nothing was no longer acceptable. Insurance companies, she noted, have already raised premiums for 340 households near the river."),
        ScriptParagraph(kind: .paragraph, text: "Funding remains the largest obstacle. The council hopes to cover most of the cost with a grant from the national government, while the rest would come from a modest increase in local taxes. Critics fear that the final bill will be much larger than the current estimate."),
        ScriptParagraph(kind: .paragraph, text: "A public consultation will open next month, and residents will be able to comment on the design online or at the library. The council expects to make a final decision before the end of the summer."),
        ScriptParagraph(kind: .paragraph, text: "For now, families along the river continue to watch the weather forecasts closely. Sandbags are stacked beside many front doors, and neighbours have formed a group to warn each other when heavy rain is expected. Whatever the council decides, they say, the town must not be caught unprepared again."),
    ]

    /// The voices, one per paragraph in turn: the narrators' accents and paces differ a little.
    static let voices: [(voice: String, wordsPerMinute: Int)] = [("en-us", 160), ("en-gb", 150), ("en-us", 175), ("en-gb", 170)]

    static let sampleRate = 44_100

    /// One sentence as read: its samples and where its speech lies within them (seconds).
    struct Sentence {
        var samples: [Float]
        var speech: ClosedRange<Double>
    }

    /// `sentences[p][s]`: sentence s of paragraph p.
    let sentences: [[Sentence]]

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var sentences: [[Sentence]] = []
        for (index, paragraph) in Self.paragraphs.enumerated() {
            let (voice, rate) = Self.voices[index % Self.voices.count]
            var read: [Sentence] = []
            for (number, sentence) in paragraph.sentences.enumerated() {
                let spoken = folder.appendingPathComponent("p\(index)-s\(number)-espeak.wav").path
                let converted = folder.appendingPathComponent("p\(index)-s\(number).wav").path
                try Self.run("espeak-ng", ["-w", spoken, "-s", "\(rate)", "-v", voice, sentence.text])
                try Self.run("sox", [spoken, "-r", "\(Self.sampleRate)", "-c", "1", "-b", "16", converted])
                let reader = try SoundFileReader(path: converted)
                defer { reader.close() }
                let samples = try reader.readAll().map { Float($0) / Float(Int32.max) }
                let activity = SpeechActivity(samples: samples, sampleRate: Self.sampleRate)
                let speech = (activity.speech.first?.lowerBound ?? 0)...(activity.speech.last?.upperBound ?? 0)
                read.append(Sentence(samples: samples, speech: speech))
            }
            sentences.append(read)
        }
        self.sentences = sentences
    }

    /// A take of paragraph `paragraph` without sentence `skipping`, and where each sentence
    /// read lies in it (seconds), by sentence index.
    func take(_ paragraph: Int, skipping: Int? = nil) -> (samples: [Float], speech: [Int: ClosedRange<Double>]) {
        var samples: [Float] = []
        var speech: [Int: ClosedRange<Double>] = [:]
        for (index, sentence) in sentences[paragraph].enumerated() where index != skipping {
            let offset = Double(samples.count) / Double(Self.sampleRate)
            speech[index] = (offset + sentence.speech.lowerBound)...(offset + sentence.speech.upperBound)
            samples += sentence.samples
        }
        return (samples, speech)
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NarrationError(.fileSystem, "\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus).")
        }
    }
}
