import ArgumentParser
import Narration
import NarrationCore
import NarrationTerminal

extension Narrate {
    /// `narrate doctor`: one screen that says what works and what to fix.
    struct Doctor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the microphone, the levels, the disk, the recordings, the settings and the destinations, and say what to fix.",
            discussion: """
                Each line says what was found: ✓ works, ! works but could be better (or soon \
                will not), ✗ does not work. What to do follows on a line starting →, unless the line says it itself.

                Sound: the sound cards and the audio devices that can record; whether the microphone (--device, \
                else device in config.toml, else "default") opens in the article's format \
                (--article; else the format new articles get); and a level test that listens \
                for --seconds (3) while you say a sentence: peak, speech level (RMS), the \
                room's noise between words and clipping, with what a sound engineer would \
                advise. A muted microphone shows as digital silence.

                Recordings: the data folder ($NARRATE_HOME) and that it can be written; the \
                free space on its disk, in hours of recording; SQLite's integrity check of the \
                catalog, and every chunk file it names.

                Settings and delivery: that config.toml reads; each object storage \
                destination's key pair, from the environment or from a credentials file only \
                you can read (chmod 600); and each destination in config.toml, a small test \
                file or object written, read back and removed.

                Nothing you have is changed: the catalog is only read, and every test file is \
                removed again. Object storage that cannot be reached or does not answer is \
                given up on after NARRATE_STORAGE_ANSWER_TIMEOUT seconds (15; connecting, 10 \
                at most).

                Exit status: 0 when nothing needs fixing (! lines allowed), 1 when a ✗ line \
                needs fixing, 64 for a wrong option. --json prints every finding, the level \
                test's figures in dBFS and the free space for scripts.

                  narrate doctor
                  narrate doctor --device hw:1 --article 3f9a
                  narrate doctor --no-level-test --json
                """)

        @Option(help: ArgumentHelp("The capture device to test (default: device in config.toml, else \"default\").", valueName: "PCM"))
        var device: String?

        @Option(help: ArgumentHelp(
            "Test the microphone in this article's format, by id or the start of it (default: the format new articles get).", valueName: "ID"))
        var article: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("How long the level test listens.", valueName: "S"))
        var seconds: Double = 3

        @Flag(name: .customLong("no-level-test"), help: "Only open the microphone; do not listen.")
        var noLevelTest = false

        @OptionGroup var output: JSONOption

        func validate() throws {
            guard seconds.isFinite, (0.5...60).contains(seconds) else {
                throw ValidationError("--seconds \(Console.number(seconds)) is not a length the level test can listen for: give 0.5 to 60.")
            }
        }

        func run() async throws {
            let request = Narration.Doctor.Request(device: device, article: article, levelTestSeconds: noLevelTest ? nil : seconds)
            let seconds = self.seconds
            let report = await Narration.Doctor.examine(request) {
                // Said whatever stdout and stderr are: a volunteer may run it through a pipe.
                Console.error("Level test: say a sentence now, as you would read an article (\(Console.number(seconds)) s)…")
            }
            let checkup = report.checkup
            if output.json {
                Console.printJSON(DoctorJSON(report))
            } else {
                for group in DoctorFinding.Group.allCases {
                    let findings = checkup.findings(in: group)
                    guard !findings.isEmpty else { continue }
                    Console.print(group.title)
                    for finding in findings {
                        Console.print("  \(Self.mark(finding.status)) \(finding.area.title): \(finding.found)")
                        if let remedy = Self.remedy(finding) { Console.print("    → \(remedy)") }
                    }
                }
                Console.print("")
                Console.print(Self.summary(checkup))
            }
            if checkup.count(.problem) > 0 { throw ExitCode(1) }
        }

        static func mark(_ status: DoctorFinding.Status) -> String {
            switch status {
            case .ok: "✓"
            case .warning: "!"
            case .problem: "✗"
            }
        }

        /// The finding's advice and remedy as one line, in narrate's words; nil when there is none.
        static func remedy(_ finding: DoctorFinding) -> String? {
            let parts = [finding.advice, finding.remedy?.commandLine.text].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }

        /// "All is well: nothing to fix." or "2 things to fix (✗) and 1 to look at (!)."
        static func summary(_ checkup: Checkup) -> String {
            let problems = checkup.count(.problem)
            let warnings = checkup.count(.warning)
            let toLook = warnings == 0 ? "" : "\(warnings) to look at (!)"
            guard problems > 0 else {
                return warnings == 0 ? "All is well: nothing to fix." : "Nothing needs fixing; \(toLook)."
            }
            let toFix = "\(problems) thing\(problems == 1 ? "" : "s") to fix (✗)"
            return warnings == 0 ? "\(toFix)." : "\(toFix) and \(toLook)."
        }
    }
}

/// `narrate doctor --json`: every finding, and the figures behind them.
struct DoctorJSON: Encodable {
    struct Finding: Encodable {
        let area: String
        let status: String
        let found: String
        let remedy: String?
    }

    struct Format: Encodable {
        let sampleRate: Int
        let channels: Int
        let bitsPerSample: Int
    }

    struct Level: Encodable {
        let seconds: Double
        let peakDBFS: Double
        let rmsDBFS: Double
        let speechRMSDBFS: Double
        let noiseFloorDBFS: Double
        let signalToNoiseDB: Double
        let clippedSamples: Int
        let digitalSilence: Bool
        /// What a sound engineer would say, by name: "clipping", "quiet", "noisy", …
        let issues: [String]
    }

    struct Disk: Encodable {
        let path: String
        let freeBytes: Int64
        let bytesPerHour: Int64
        let hours: Double
    }

    let ok: Bool
    let problems: Int
    let warnings: Int
    let device: String
    let format: Format
    let dataRoot: String?
    let findings: [Finding]
    let level: Level?
    let disk: Disk?

    init(_ report: Narration.Doctor.Report) {
        func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        let checkup = report.checkup
        ok = checkup.count(.problem) == 0
        problems = checkup.count(.problem)
        warnings = checkup.count(.warning)
        device = report.device
        format = Format(sampleRate: report.format.sampleRate, channels: report.format.channels, bitsPerSample: report.format.bitsPerSample)
        dataRoot = report.dataRoot?.path
        findings = checkup.findings.map {
            Finding(area: $0.area.rawValue, status: $0.status.rawValue, found: $0.found, remedy: Narrate.Doctor.remedy($0))
        }
        level = report.level.map {
            Level(
                seconds: rounded($0.seconds), peakDBFS: rounded($0.peak.value), rmsDBFS: rounded($0.rms.value),
                speechRMSDBFS: rounded($0.speechRMS.value), noiseFloorDBFS: rounded($0.noiseFloor.value),
                signalToNoiseDB: rounded($0.signalToNoise), clippedSamples: $0.clippedSamples, digitalSilence: $0.isDigitalSilence,
                issues: LevelAdvice.issues($0).map(\.name))
        }
        disk = report.space.map { space in
            Disk(path: report.spaceFolder?.path ?? "", freeBytes: space.freeBytes, bytesPerHour: space.bytesPerHour, hours: rounded(space.hours))
        }
    }
}
