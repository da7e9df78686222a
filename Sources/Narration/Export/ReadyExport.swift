public import Foundation
public import NarrationAudio
public import NarrationCore
import Synchronization

/// An article's MP3 export kept nearly made while the article is being recorded, so that queue
/// after the last take is nearly instant: the studio exports in the background between takes
/// with one of these, and queue then encodes and measures only what the last takes changed.
///
/// It holds the MP3 segments of the last export, one per chunk (`MP3SegmentStore`), the
/// measures of the parts of its file (`MeasuredPartStore`), and the gain, the shift from the
/// mastering's gain (the encoder's and the limiter's loss, learnt from the file) and the
/// limiter's ceiling that file landed with. Each segment and part is found by a key that
/// names everything it was made from, so nothing stale is ever reused: a new take changes the
/// keys of its own segment and the one before it; a re-recorded, trimmed or deleted chunk those
/// of its neighbours and of every later segment whose place on the MP3 frame grid moved; a new
/// gain all of them. The gain is kept while the article's loudness moves it by less than
/// `gainStepDecibels`, so that a take does not make every segment stale.
///
/// Used only for CBR MP3 at 32, 44.1 or 48 kHz, the podcast and broadcast case; other formats
/// export as before.
public final class ReadyExport: Sendable {
    /// A gain this close to the last export's is taken to be it (0.1 dB: within the exporter's
    /// 0.2 LU check of the file it made, far within a profile's loudness tolerance).
    public static let gainStepDecibels = 0.1

    let segments: MP3SegmentStore
    let parts = MeasuredPartStore()
    private let state = Mutex<(gain: SampleGain?, shift: Double?, ceiling: Decibels?)>((nil, nil, nil))
    private let lastFile = Mutex<(path: String, measured: Measurements?, segments: MP3SegmentReuse?)?>(nil)
    private let stopping = Atomic<Bool>(false)

    /// - Parameter scratchFolder: where the segments' frames wait (about the size of the MP3
    ///   file, in unnamed files that vanish with this object or the process).
    public init(scratchFolder: URL) {
        segments = MP3SegmentStore(scratchFolder: scratchFolder.path)
    }

    /// How many MP3 segments are ready.
    public var readySegments: Int { segments.count }

    /// Asks a background export using this to stop at its next block (a take is starting);
    /// `resume` lets the next one run.
    public func stop() { stopping.store(true, ordering: .relaxed) }
    public func resume() { stopping.store(false, ordering: .relaxed) }
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Drops everything kept (the article was left, or an export failed part-way).
    public func clear() {
        segments.removeAll()
        parts.removeAll()
        state.withLock { $0 = (nil, nil, nil) }
        lastFile.withLock { $0 = nil }
    }

    /// What the last export made with this measured of `file`, if it made that file (the
    /// figures its check of the file used): a summary need not read the file again.
    public func measurements(of file: URL) -> Measurements? {
        lastFile.withLock { $0?.path == file.path ? $0?.measured : nil }
    }

    /// How many MP3 segments the export that made `file` encoded, and how many were ready.
    public func segments(of file: URL) -> MP3SegmentReuse? {
        lastFile.withLock { $0?.path == file.path ? $0?.segments : nil }
    }



    /// The last export made with this: its gain, how far that was from the mastering's gain (the
    /// encoder's loudness shift, as predicted or as a second encode found it) and the limiter's
    /// ceiling (lowered when an encode's peaks went past the profile's).
    var made: (gain: SampleGain?, shift: Double?, ceiling: Decibels?) { state.withLock { $0 } }

    /// The gain to export with: the last export's, when `gain` is within `gainStepDecibels` of it.
    func gain(near gain: SampleGain) -> SampleGain {
        guard let last = state.withLock({ $0.gain }), abs(last.decibels - gain.decibels) < Self.gainStepDecibels else { return gain }
        return last
    }

    /// The encoder's loudness shift found by the last export (a voice's spectrum, and so the
    /// shift, stays the same as an article grows; the exporter still checks the file).
    var shift: Double? { state.withLock { $0.shift } }

    /// Keeps what the export that made `file` landed with, and what it measured and reused.
    func remember(
        gain: SampleGain, shift: Double, ceiling: Decibels?, file: URL, measured: Measurements?, segments: MP3SegmentReuse?
    ) {
        state.withLock { $0 = (gain, shift, ceiling) }
        lastFile.withLock { $0 = (file.path, measured, segments) }
    }

    /// Whether exports with `profile` of an article in `format` can use this.
    public static func applies(to profile: DeliveryProfile, format: AudioFormat) -> Bool {
        applies(to: ExportSettings(profile: profile), format: format)
    }

    /// Whether an export in `settings` of an article in `format` can use this.
    static func applies(to settings: ExportSettings, format: AudioFormat) -> Bool {
        guard settings.format == .mp3, case .constant = settings.mp3, settings.fileFormat(for: format) == format else {
            return false
        }
        return MP3Frame.mpeg1SampleRates.contains(format.sampleRate)
    }
}

extension SampleGain {
    var decibels: Double { 20 * log10(linear) }
}

extension NarrationLibrary {
    /// Exports the article as queue would with `profile`, into scratch space in the article's
    /// folder, to bring `ready` up to date; the file itself is removed. Run in the background
    /// between takes. It takes no lock on the article, so that a take may start meanwhile
    /// (`ReadyExport.stop` ends this export at its next block): it only reads committed chunk
    /// files, which never change, and a chunk deleted meanwhile fails it without changing anything.
    /// - Returns: what the export made (its segments: how many were encoded, how many reused).
    @discardableResult
    public func prepareExport(_ article: Article, profile: DeliveryProfile, ready: ReadyExport) throws(NarrationError) -> ExportResult {
        let entries = try chunkEntries(of: article)
        guard !entries.isEmpty else { throw .emptyArticle(article, nothingTo: "export") }
        let scratch = root.articleURL(article.id).appendingPathComponent("ready.\(profile.format.fileExtension)")
        defer { FileSystem.discard(scratch) }
        return try exportLocked(article, entries: entries, to: scratch, settings: ExportSettings(profile: profile), ready: ready) { _, _ in }
    }
}
