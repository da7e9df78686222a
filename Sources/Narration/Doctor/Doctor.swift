public import Foundation
public import NarrationCore

/// The checkup behind `narrate doctor`: everything a volunteer needs to record and deliver,
/// each looked at and judged (`DoctorFinding`), every failure a finding and none thrown.
///
/// It changes nothing a volunteer has: the data folder and the catalog are only read (no take
/// is adopted, no catalog brought up to date), and the test file or object written to each
/// destination is removed again.
public enum Doctor {
    /// What to check, as the volunteer asked.
    public struct Request: Sendable {
        /// The capture device; nil: config.toml's `device`, else "default", as `record` chooses.
        public var device: String?
        /// The article whose format the microphone must open in (an id or its start); nil: the
        /// format new articles get.
        public var article: String?
        /// How long the level test listens; nil: no level test.
        public var levelTestSeconds: Double?
        public var environment: [String: String]

        public init(
            device: String? = nil, article: String? = nil, levelTestSeconds: Double? = 3,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.device = device
            self.article = article
            self.levelTestSeconds = levelTestSeconds
            self.environment = environment
        }
    }

    /// What the checkup found, and the figures behind it for scripts.
    public struct Report: Sendable {
        public var checkup: Checkup
        /// The device the microphone check used.
        public var device: String
        /// The format it was asked to open in.
        public var format: AudioFormat
        /// The level test's figures, when it ran and heard something.
        public var level: LevelMeasurement?
        /// The data folder, when the environment names one.
        public var dataRoot: URL?
        /// The free space, when it could be read.
        public var space: RecordingSpace?
        /// The folder whose disk `space` measured: the data folder, or the parent it would be made in.
        public var spaceFolder: URL?
    }

    /// Runs every check. `onListening` is called (from another thread) when the level test has
    /// started listening, for the front end to ask for a sentence.
    public static func examine(_ request: Request, onListening: @escaping @Sendable () -> Void = {}) async -> Report {
        var findings: [DoctorFinding] = []
        let environment = request.environment

        let (configFinding, settings) = DeliveryCheck.config(environment: environment)
        findings.append(configFinding)

        // The data folder and its catalog first: an article's format comes from there.
        var root: DataRoot?
        var catalog: Result<Catalog?, NarrationError> = .success(nil)
        var existingFolder: URL?
        do {
            let found = try DataRoot.fromEnvironment(environment)
            root = found
            let (finding, existing) = LibraryCheck.dataRoot(found)
            findings.append(finding)
            existingFolder = existing
            catalog = LibraryCheck.openCatalog(found)
        } catch {
            findings.append(DoctorFinding(.dataRoot, .problem, error))
        }

        var format = AudioFormat.speech
        var formatOrigin = "the format new articles get"
        if let id = request.article {
            let fallback = "The microphone was tried in \(format), the format new articles get."
            switch catalog {
            case .success(let opened?):
                do {
                    let article = try opened.article(matching: id)
                    format = article.format
                    formatOrigin = "the format of \"\(Catalog.quoted(article.title))\""
                } catch {
                    findings.append(DoctorFinding(.microphone, .problem, error, advice: fallback))
                }
            case .success(nil):
                findings.append(DoctorFinding(.microphone, .problem, .unknownArticle(id), advice: fallback))
            case .failure:
                findings.append(DoctorFinding(
                    .microphone, .problem, "the article \"\(id)\" cannot be looked up: the catalog cannot be read", advice: fallback))
            }
        }

        findings.append(SoundCheck.devices())
        let device = request.device ?? settings?.device ?? Settings().device
        let microphone = await SoundCheck.microphone(
            device: device, format: format, formatOrigin: formatOrigin, seconds: request.levelTestSeconds, onListening: onListening)
        findings.append(microphone.opened)
        if let level = microphone.level { findings.append(level) }

        var space: RecordingSpace?
        if let existingFolder {
            let (finding, measured) = LibraryCheck.disk(at: existingFolder, format: format)
            findings.append(finding)
            space = measured
        }
        if let root { findings.append(LibraryCheck.catalog(catalog, root: root)) }

        if let settings {
            let (targets, unknown) = DeliveryCheck.targets(settings)
            findings += DeliveryCheck.credentials(targets, environment: environment)
            findings += unknown
            if targets.isEmpty && unknown.isEmpty {
                findings.append(DoctorFinding(.destination, .ok, "none is set in config.toml, so exports wait in the outbox until sent somewhere"))
            }
            for target in targets { findings.append(await DeliveryCheck.destination(target, environment: environment)) }
        }

        // Grouped by area, each area's findings in the order they were made.
        let ordered = DoctorFinding.Area.allCases.flatMap { area in findings.filter { $0.area == area } }
        return Report(
            checkup: Checkup(ordered), device: device, format: format, level: microphone.measurement, dataRoot: root?.url, space: space,
            spaceFolder: space == nil ? nil : existingFolder)
    }
}
