public import Foundation
public import Narration
public import NarrationAudio
public import NarrationCore

/// A library in a temporary data root with a virtual microphone playing speech: what the engine's
/// and the studio session's tests open.
public struct LibraryFixture {
    public let folder = TemporaryFolder("narrate-library")
    public let devices: VirtualDevices
    public let source: [UInt8]
    public let library: NarrationLibrary

    /// - Parameter catalog: the engine of the library's catalog: its SQLite file in the data root,
    ///   or a schema of its own on the tests' PostgreSQL server.
    public init(
        catalog: CatalogEngines.Kind = .sqlite, format: AudioFormat = .speech, root: URL? = nil, sourceSeconds: Double = 6, source: [UInt8]? = nil
    ) throws {
        self.source = try source ?? Signals.speech(format, seconds: sourceSeconds)
        devices = try VirtualDevices(folder: folder.url, source: self.source)
        let dataRoot = DataRoot(url: root ?? folder.url.appendingPathComponent("home"))
        switch catalog {
        case .sqlite:
            library = try NarrationLibrary(root: dataRoot)
        case .postgreSQL:
            let engine = try CatalogEngines.make(.postgreSQL, folder: folder)
            library = try NarrationLibrary(root: dataRoot, catalog: Catalog(engine: engine, name: "on the test server"))
        }
    }

    /// Records one take of exactly `seconds` from the virtual microphone.
    @discardableResult
    public func record(_ article: Article, seconds: Double, placement: ChunkPlacement = .append) throws -> Recording.Outcome {
        let recording = try library.prepareRecording(
            into: article, placement: placement, device: "vmic", duration: seconds, definitions: devices.definitions)
        try recording.start()
        return recording.finish()
    }

    /// Records one take of `frames` frames whose microphone plays `source` (16-bit mono).
    public func record(_ article: Article, frames: FrameCount, source: [UInt8]) throws {
        let take = folder.url.appendingPathComponent("take-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: take, withIntermediateDirectories: true)
        let microphone = try VirtualDevices(folder: take, source: source)
        let recording = try library.prepareRecording(
            into: article, placement: .append, device: "vmic", duration: Double(frames) / 44_100,
            definitions: microphone.definitions)
        try recording.start()
        _ = recording.finish()
    }

    /// The first `frames` frames the microphone plays, as samples.
    public func sourceSamples(frames: FrameCount, format: AudioFormat = .speech) -> [Int32] {
        Signals.samples(Array(source.prefix(frames * format.bytesPerFrame)), bitsPerSample: format.bitsPerSample)
    }

    public func samples(of entry: NarrationLibrary.ChunkEntry) throws -> [Int32] {
        try SoundFileReader(path: entry.file.path).readAll()
    }
}

extension NarrationLibrary {
    /// Resumes the uploaded take `tag` as a page coming back does (`resumeUpload`), with the
    /// browser's stream the take now reads, which starts where the take's partial file ends.
    public func resumeUploadedTake(_ tag: TakeUploadTag, into article: Article) throws -> (Recording, StreamedCapture) {
        var made: StreamedCapture?
        let recording = try resumeUpload(tag, into: article) { frames in
            let stream = StreamedCapture(name: "the browser's microphone", format: article.format, startFrame: frames)
            made = stream
            return stream
        }
        guard let made else { throw NarrationError.usage("The resumed take asked for no stream.") }
        return (recording, made)
    }
}
