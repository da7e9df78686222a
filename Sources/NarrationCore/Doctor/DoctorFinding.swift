/// One thing the checkup (`narrate doctor`) looked at: what it found, in plain words, how good
/// that is, and what to do about it.
///
/// A finding is a value: the engine decides it, each front end says it its own way. `advice` is
/// in plain words and names no narrate command; `remedy` is narrate's own remedy (a command to
/// run), which the front end renders, as it does for a `NarrationError`.
public struct DoctorFinding: Sendable, Equatable {
    /// How good what was found is. Ordered: a problem is worse than a warning.
    public enum Status: String, Sendable, Comparable, CaseIterable {
        /// It works.
        case ok
        /// It works, but not well, or will soon stop working (little disk space left, a noisy room).
        case warning
        /// It does not work: recording or delivering will fail until it is fixed.
        case problem

        private var rank: Int {
            switch self {
            case .ok: 0
            case .warning: 1
            case .problem: 2
            }
        }

        public static func < (lhs: Status, rhs: Status) -> Bool { lhs.rank < rhs.rank }
    }

    /// What a finding is about; the order of the cases is the order a checkup reports them in.
    public enum Area: String, Sendable, CaseIterable {
        case devices, microphone, level, dataRoot, disk, catalog, config, credentials, destination

        /// The area as a volunteer reads it at the start of a line: "audio devices", "level test".
        public var title: String {
            switch self {
            case .devices: "audio devices"
            case .microphone: "microphone"
            case .level: "level test"
            case .dataRoot: "data folder"
            case .disk: "disk space"
            case .catalog: "catalog"
            case .config: "config.toml"
            case .credentials: "credentials"
            case .destination: "destination"
            }
        }

        /// The part of the checkup an area belongs to, for a screen grouped in three.
        public var group: Group {
            switch self {
            case .devices, .microphone, .level: .sound
            case .dataRoot, .disk, .catalog: .recordings
            case .config, .credentials, .destination: .delivery
            }
        }
    }

    /// The three parts of a checkup's screen.
    public enum Group: String, Sendable, CaseIterable {
        case sound, recordings, delivery

        public var title: String {
            switch self {
            case .sound: "Sound"
            case .recordings: "Recordings"
            case .delivery: "Settings and delivery"
            }
        }
    }

    public let area: Area
    public let status: Status
    /// What was found, in plain words; for a failure, the failure's own sentence.
    public let found: String
    /// What to do, in plain words that name no narrate command; nil when there is nothing to do
    /// or `found` already says it.
    public let advice: String?
    /// narrate's own remedy, for the front end to say in its words.
    public let remedy: Remedy?

    public init(_ area: Area, _ status: Status, _ found: String, advice: String? = nil, remedy: Remedy? = nil) {
        self.area = area
        self.status = status
        self.found = found
        self.advice = advice
        self.remedy = remedy
    }

    /// A failure the engine reported, as a finding: its message is what was found, its remedy the remedy.
    public init(_ area: Area, _ status: Status, _ error: NarrationError, advice: String? = nil) {
        self.init(area, status, error.message, advice: advice, remedy: error.remedy)
    }
}

/// Every finding of one checkup, in the order they were made.
public struct Checkup: Sendable, Equatable {
    public var findings: [DoctorFinding]

    public init(_ findings: [DoctorFinding] = []) { self.findings = findings }

    /// The worst status of any finding; ok for none.
    public var worst: DoctorFinding.Status { findings.map(\.status).max() ?? .ok }

    /// How many findings have `status`.
    public func count(_ status: DoctorFinding.Status) -> Int { findings.count(where: { $0.status == status }) }

    /// The findings of `group`, in the order of their areas, each area's in the order made.
    public func findings(in group: DoctorFinding.Group) -> [DoctorFinding] {
        DoctorFinding.Area.allCases.filter { $0.group == group }.flatMap { area in findings.filter { $0.area == area } }
    }
}
