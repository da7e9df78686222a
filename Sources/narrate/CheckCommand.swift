import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate check`: measures a file or an article against a delivery profile.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure a file or an article: loudness, levels, noise floor, clipping, long silences.",
            discussion: """
                With --profile, each of the profile's rules passes or fails, and the exit status is 1 \
                if any fails. Profiles: acx, podcast, librivox, archive, mobile, telephone, or one of config.toml's. \
                export, queue and submit run the same check on what they make and keep nothing \
                that fails.

                Room tone, at the head and the tail, is measured as the exporter makes it: the \
                recording's quietest 0.5 s is its noise floor, and a 100 ms window counts as room \
                tone when it is at most 6 dB above that floor. Silences are \
                windows below -50 dBFS. True peak is measured as ITU-R BS.1770-4 says (4x \
                oversampling), as libebur128 and ffmpeg measure it.

                  narrate check budget.mp3 --profile acx
                  narrate check --article k3f9x2ab --json
                """)

        @Argument(help: ArgumentHelp("An audio file (WAV, FLAC, MP3…); leave out to check an article's chunks.", valueName: "PATH"))
        var path: String?

        @OptionGroup var target: ArticleOption

        @Option(help: ArgumentHelp("The delivery profile whose rules to check.", valueName: "NAME"))
        var profile: String?

        @OptionGroup var output: JSONOption

        func validate() throws {
            if path != nil && target.article != nil { throw ValidationError("Check a file or an article, not both.") }
        }

        func run() async throws {
            // On a host of a reading service the article's chunks may be in the recordings store only.
            if path == nil { try await CommandRunner.bringChunksHome(of: target.article) }
            try runHere()
        }

        func runHere() throws {
            var chosen: DeliveryProfile?
            if let profile {
                let configured = try CommandRunner.settings()
                do { chosen = try configured.deliveryProfile(named: profile) } catch {
                    Console.error(error.sentence)
                    throw ExitCode(error.exitStatus)
                }
            }
            let bar = ProgressBar(label: "Measuring")
            let (name, measurements, described) = try CommandRunner.withLibrary(readOnly: true) { (library) throws(NarrationError) -> (String, Measurements, String?) in
                if let path {
                    let url = URL(fileURLWithPath: path)
                    guard FileManager.default.fileExists(atPath: url.path) else {
                        throw NarrationError(.chunkFileMissing, "There is no file \(url.path).")
                    }
                    let described = try Analyzer.describe(outsideFile: url)
                    return (url.lastPathComponent, try Analyzer.measure(file: url) { bar.update(done: $0, total: $1) }, described)
                }
                let article = try library.article(target.article)
                return ("\"\(article.title)\"", try library.measure(article) { bar.update(done: $0, total: $1) }, nil)
            }
            bar.finish()
            let results = chosen?.rules.map { $0.evaluate(measurements) } ?? []
            let passed = results.allSatisfy(\.passed)
            if output.json {
                Console.printJSON(CheckJSON(measurements, profile: chosen?.name, results: results))
            } else {
                print(measurements, name: name, described: described ?? measurements.format.description, profile: chosen, results: results)
            }
            if !passed {
                Console.error("\(name) does not meet the \(chosen!.name) profile: \(results.failures).")
                throw ExitCode.failure
            }
        }

        /// "none", or "3 clipped stretches: 00:00:11.500–00:00:14.200, …", at most 5 listed.
        static func stretches(_ stretches: [Stretch], named noun: String, seconds: (FrameCount) -> String) -> String {
            guard !stretches.isEmpty else { return "none" }
            let listed = stretches.prefix(5).map { "\(seconds($0.start))–\(seconds($0.end))" }.joined(separator: ", ")
            let more = stretches.count > 5 ? " and \(stretches.count - 5) more" : ""
            return "\(stretches.count) \(noun)\(stretches.count == 1 ? "" : "es"): \(listed)\(more)"
        }

        /// - Parameter described: how the file holds its sound (an MP3 by its bitrate), or the
        ///   article's format.
        private func print(_ m: Measurements, name: String, described: String, profile: DeliveryProfile?, results: [RuleResult]) {
            let seconds = { (frames: FrameCount) in Timecode.precise(m.format.seconds(frames)) }
            Console.print("\(name): \(seconds(m.frames)), \(described)")
            Console.print("  loudness     \(m.integratedLoudness.map { "\(String(format: "%.1f", $0)) LUFS" } ?? "too quiet to measure")")
            Console.print("  RMS          \(m.rms.formatted) dB")
            Console.print("  peak         \(m.peak.formatted) dB")
            Console.print("  true peak    \(m.truePeak.formatted) dBTP")
            Console.print("  noise floor  \(m.noiseFloor.formatted) dB (quietest 0.5 s)")
            Console.print("  clipping     \(Self.stretches(m.clipping, named: "clipped stretch", seconds: seconds))")
            Console.print("  silences > 3 s  \(m.longSilences.isEmpty ? "none" : m.longSilences.map { "\(seconds($0.start))–\(seconds($0.end))" }.joined(separator: ", "))")
            Console.print("  room tone    \(String(format: "%.1f", m.headSilence)) s at the head, \(String(format: "%.1f", m.tailSilence)) s at the tail")
            if let profile {
                Console.print("Profile \(profile.name):")
                for result in results {
                    Console.print("  \(result.passed ? "pass" : "FAIL")  \(result.rule): \(result.measured)")
                }
            }
        }
    }
}

struct CheckJSON: Encodable {
    struct StretchJSON: Encodable {
        let start: Double
        let end: Double
    }

    struct RuleJSON: Encodable {
        let rule: String
        let measured: String
        let passed: Bool
    }

    let duration: Double
    let integratedLoudness: Double?
    let rmsDB: Double
    let peakDB: Double
    let truePeakDB: Double
    let noiseFloorDB: Double
    let headSilence: Double
    let tailSilence: Double
    let clipping: [StretchJSON]
    let longSilences: [StretchJSON]
    let profile: String?
    let rules: [RuleJSON]
    let passed: Bool

    init(_ m: Measurements, profile: String?, results: [RuleResult]) {
        let seconds = { (frames: FrameCount) in m.format.seconds(frames) }
        duration = seconds(m.frames)
        integratedLoudness = m.integratedLoudness
        rmsDB = m.rms.value
        peakDB = m.peak.value
        truePeakDB = m.truePeak.value
        noiseFloorDB = m.noiseFloor.value
        headSilence = m.headSilence
        tailSilence = m.tailSilence
        clipping = m.clipping.map { StretchJSON(start: seconds($0.start), end: seconds($0.end)) }
        longSilences = m.longSilences.map { StretchJSON(start: seconds($0.start), end: seconds($0.end)) }
        self.profile = profile
        rules = results.map { RuleJSON(rule: $0.rule, measured: $0.measured, passed: $0.passed) }
        passed = results.allSatisfy(\.passed)
    }
}
