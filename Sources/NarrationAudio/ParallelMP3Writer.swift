import Foundation
public import NarrationCore
import Synchronization

/// Hands `write` the samples of frames `range` of the stream being encoded, in blocks of any
/// size, exactly `range.count` frames in all. Called on several threads at once, each call with
/// its own range.
public typealias SampleProducer = @Sendable (
    _ range: Range<FrameCount>, _ write: (UnsafeBufferPointer<Int32>) throws(NarrationError) -> Void
) throws(NarrationError) -> Void

/// How a parallel encode gets threads besides the calling one: runs `helper` on up to `count`
/// other threads while the calling thread runs `own`, and returns once `own` has returned and
/// every helper that began has returned too; a helper that had not begun by then never runs.
/// The engine passes its pool's (`ParallelWork.mp3EncoderThreads`), so this target makes no threads.
public typealias HelperThreads = (_ count: Int, _ helper: @escaping @Sendable () -> Void, _ own: () -> Void) -> Void

/// Encodes one gapless MP3 on several cores: the stream is split into segments on the MP3 frame
/// grid (`MP3SegmentPlan`), each encoded by its own LAME instance on its own thread from a
/// pre-roll before its seam, and the frames are stitched into one stream with one info tag
/// (`MP3Seam`, `MP3InfoTag`). The file is the one `MP3Writer` makes of the same samples, frame
/// for frame wherever the two encoders agreed at a seam (shared/MP3-PARALLEL.md).
///
/// Memory stays flat: the first segment streams into the file; the others stream into unnamed
/// scratch files beside it, copied in after the first; only the frames around each seam are
/// held. CBR at 32, 44.1 and 48 kHz only: VBR frames have no fixed grid to cut on, and lower
/// rates are MPEG-2, with frames of another length.
public enum ParallelMP3Writer {
    /// How many encoders an MP3 of `frames` frames gets on `cores` cores; 1 means one stream
    /// (`MP3Writer`), for VBR, MPEG-2 rates, one core or a stream too short to split.
    public static func segments(for frames: FrameCount, format: AudioFormat, encoding: MP3Encoding, cores: Int) -> Int {
        guard cores > 1, case .constant(let kbps) = encoding, MP3Frame.mpeg1SampleRates.contains(format.sampleRate) else { return 1 }
        return plan(frames: frames, format: format, kbps: kbps, segments: min(cores, 8)).segmentCount
    }

    /// Creates `path` (which must not exist) and encodes the `frames` frames `produce` makes into
    /// it on `segments` threads (the calling thread is one of them, `helpers` gives the others).
    /// - Parameter progress: called on this thread with the frames encoded so far.
    /// - Throws: what `produce` throws; `usage` for encodings LAME refuses; `fileSystem`,
    ///   `diskFull`. `path` is removed on any failure.
    public static func write(
        creating path: String, format: AudioFormat, encoding: MP3Encoding, tag: ID3Tag, frames: FrameCount, segments: Int,
        helpers: HelperThreads, produce: @escaping SampleProducer, progress: (FrameCount) -> Void
    ) throws(NarrationError) {
        guard case .constant(let kbps) = encoding else { preconditionFailure("a parallel encode is CBR") }
        try write(
            creating: path, format: format, encoding: encoding, tag: tag, plan: plan(frames: frames, format: format, kbps: kbps, segments: segments),
            threads: segments, helpers: helpers, produce: produce, progress: progress)
    }

    /// Encodes the segments of `plan` on `threads` threads (this one and `threads - 1` from
    /// `helpers`), taking from `store` every segment
    /// whose key (`keys[k]` for segment k) it holds and adding those it encodes; the store then
    /// keeps exactly this stream's segments.
    /// - Returns: how many segments were encoded and how many reused.
    @discardableResult
    public static func write(
        creating path: String, format: AudioFormat, encoding: MP3Encoding, tag: ID3Tag, plan: MP3SegmentPlan, threads: Int,
        reusing store: (MP3SegmentStore, keys: [String])? = nil, helpers: HelperThreads, produce: @escaping SampleProducer,
        progress: (FrameCount) -> Void
    ) throws(NarrationError) -> MP3SegmentReuse {
        guard case .constant(let kbps) = encoding else { preconditionFailure("a parallel encode is CBR") }
        precondition(store == nil || store!.keys.count == plan.segmentCount, "a key for each segment")
        let file = try DescriptorFile(creating: path)
        do throws(NarrationError) {
            let tagBytes = tag.bytes
            try tagBytes.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try file.write(UnsafeRawBufferPointer(bytes)) }
            let folder = store?.0.folder ?? { let folder = (path as NSString).deletingLastPathComponent; return folder.isEmpty ? "." : folder }()
            var segments: [EncodedMP3Segment] = []
            var reused = 0
            for index in 0..<plan.segmentCount {
                if let (store, keys) = store, let stored = store.segment(keys[index]) {
                    segments.append(stored)
                    reused += 1
                    continue
                }
                // Without a store, the first segment streams straight into the file.
                let sink = index == 0 && store == nil ? file : try DescriptorFile(scratchIn: folder)
                segments.append(EncodedMP3Segment(index: index, plan: plan, format: format, encoding: encoding, path: path, sink: sink))
            }
            let pending = segments.filter { !$0.isEncoded }
            let done = segments.filter(\.isEncoded).reduce(0) { $0 + plan.ownedSamples($1.index).count }
            defer {
                if let (store, keys) = store {
                    store.add(Dictionary(pending.filter(\.isEncoded).map { (keys[$0.index], $0) }, uniquingKeysWith: { $1 }))
                }
            }
            try encode(pending, threads: threads, helpers: helpers, produce: produce) { encoded in progress(done + encoded) }
            try stitch(segments, plan: plan, kbps: kbps, into: file, infoTagOffset: tagBytes.count)
            try file.sync()
            file.close()
            if let (store, keys) = store { store.keepOnly(Set(keys)) }
            return MP3SegmentReuse(encoded: pending.count, reused: reused)
        } catch {
            file.remove()
            throw error
        }
    }

    private static func plan(frames: FrameCount, format: AudioFormat, kbps: Int, segments: Int) -> MP3SegmentPlan {
        MP3SegmentPlan(samples: frames, segments: segments, paddingPeriod: MP3SegmentPlan.paddingPeriod(kbps: kbps, sampleRate: format.sampleRate))
    }

    /// Encodes `segments` on `threads` threads, this one among them, each taking the next segment
    /// not yet begun; a failure stops them all.
    /// - Parameter progress: called on this thread with the samples encoded so far.
    private static func encode(
        _ segments: [EncodedMP3Segment], threads: Int, helpers: HelperThreads, produce: @escaping SampleProducer, progress: (FrameCount) -> Void
    ) throws(NarrationError) {
        guard !segments.isEmpty else { return }
        let stop = StopSignal()
        let next = Counter()
        let workers = max(1, min(threads, segments.count))
        /// Encodes segments until none is left; `block` runs after each block of samples.
        @Sendable func work(_ block: () -> Void) {
            while !stop.isRaised {
                let index = next.take()
                guard index < segments.count else { return }
                segments[index].run(produce: produce, stop: stop, block: block)
                if segments[index].failure != nil { stop.raise() }
            }
        }
        let encoded = { segments.reduce(0) { $0 + $1.encoded.load(ordering: .relaxed) } }
        withoutActuallyEscaping(progress) { progress in
            helpers(workers - 1, { work {} }, { work { progress(encoded()) } })
        }
        progress(encoded())
        // The first failure that was not a segment stopping because another had failed.
        if let failure = segments.lazy.filter({ !$0.stopped }).compactMap(\.failure).first { throw failure }
        if let failure = segments.lazy.compactMap(\.failure).first { throw failure }
    }

    /// Hands out 0, 1, 2, … to the threads that ask, each number once.
    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func take() -> Int { value.add(1, ordering: .relaxed).oldValue }
    }

    /// Raised by the first segment that fails, so that the others stop at their next block.
    final class StopSignal: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .relaxed) }
        var isRaised: Bool { raised.load(ordering: .relaxed) }
    }

    /// Joins the segments at their seams, copies them into `file` (after the first, when it was
    /// streamed there) and writes the info tag for the whole stream over the first encoder's
    /// placeholder. Stored segments are read, never changed: a seam patches a copy.
    private static func stitch(_ segments: [EncodedMP3Segment], plan: MP3SegmentPlan, kbps: Int, into file: DescriptorFile, infoTagOffset: Int) throws(NarrationError) {
        var tails = segments.map(\.tail)
        var seams = [0]
        for index in 1..<segments.count {
            guard let join = MP3Seam.join(&tails[index - 1], segments[index].head, within: plan.seamWindow(index)) else {
                throw NarrationError(.fileSystem, "The MP3 encoders could not be joined at segment \(index + 1) of \(file.path); export again.")
            }
            seams.append(join.frame)
        }
        let first = segments[0]
        var crc: UInt16 = first.sink === file ? first.streamedCRC : 0
        var audioBytes = first.sink === file ? first.streamedBytes : 0
        func append(_ bytes: UnsafeRawBufferPointer, counted: Bool = true) throws(NarrationError) {
            try file.write(bytes)
            guard counted else { return }
            crc = MP3InfoTag.crc16(crc, bytes.assumingMemoryBound(to: UInt8.self))
            audioBytes += bytes.count
        }
        func append(_ bytes: ArraySlice<UInt8>, counted: Bool = true) throws(NarrationError) {
            try bytes.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try append(UnsafeRawBufferPointer(buffer), counted: counted) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        /// Copies a segment's scratch file from `offset` on; the first `uncounted` bytes (the info
        /// tag's placeholder) are not audio.
        func copy(_ segment: EncodedMP3Segment, uncounted: Int) throws(NarrationError) {
            var offset = 0
            while true {
                let read = try buffer.withUnsafeMutableBufferPointer { (bytes) throws(NarrationError) in
                    try segment.sink.read(into: UnsafeMutableRawBufferPointer(bytes), at: offset)
                }
                guard read > 0 else { break }
                let plain = max(0, min(read, uncounted - offset))
                if plain > 0 { try append(buffer[0..<plain], counted: false) }
                if plain < read { try append(buffer[plain..<read]) }
                offset += read
            }
        }
        for (index, segment) in segments.enumerated() {
            if index > 0 {
                try append(segment.head.bytes(ofFrames: seams[index]..<segment.head.endIndex))
            }
            if segment.sink !== file {
                try copy(segment, uncounted: index == 0 ? segment.infoTagLength : 0)
            }
            if index < segments.count - 1 {
                try append(tails[index].bytes(ofFrames: tails[index].firstIndex..<seams[index + 1]))
            }
        }
        var infoTag = first.infoTag
        guard infoTag.count == first.infoTagLength,
            MP3InfoTag.rewrite(&infoTag, frames: plan.frames, audioBytes: audioBytes, samples: plan.samples, kbps: kbps, audioCRC: crc)
        else {
            throw NarrationError(.fileSystem, "The MP3 encoder's info tag for \(file.path) is not the one narrate knows; export again.")
        }
        try infoTag.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try file.write(UnsafeRawBufferPointer(bytes), at: infoTagOffset) }
    }
}

/// One segment of a parallel encode: its frames, streamed into the file or into scratch space,
/// and those held around its seams. Run by one thread; read by others only after it has
/// finished, and then never changed (a store may hand it to later encodes).
final class EncodedMP3Segment: @unchecked Sendable {
    let index: Int
    let plan: MP3SegmentPlan
    private let format: AudioFormat
    private let encoding: MP3Encoding
    private let path: String
    /// The file for the first segment of an encode without a store, scratch space otherwise.
    let sink: DescriptorFile
    /// Frames up to the seam window's end, held to join this segment to the one before.
    private(set) var head: MP3FrameRun
    /// Frames from just before the next boundary on, held to join the next segment to this one.
    private(set) var tail: MP3FrameRun
    private let streamRange: Range<Int>
    private(set) var streamedBytes = 0
    /// CRC-16 of the streamed frames (used for the first segment, whose frames open the stream).
    private(set) var streamedCRC: UInt16 = 0
    private(set) var infoTagLength = 0
    /// The first segment's info tag as its encoder left it, rewritten for the whole stream.
    private(set) var infoTag: [UInt8] = []
    private(set) var failure: NarrationError?
    /// Whether the segment stopped because another failed.
    private(set) var stopped = false
    /// Whether all its frames are made (and it may be stored).
    private(set) var isEncoded = false
    /// Samples of the segment's own stretch encoded so far.
    let encoded = Atomic<Int>(0)
    private var nextFrame: Int
    private var splitter = MP3FrameSplitter()
    private var pending: [UInt8] = []

    init(index: Int, plan: MP3SegmentPlan, format: AudioFormat, encoding: MP3Encoding, path: String, sink: DescriptorFile) {
        self.index = index
        self.plan = plan
        self.format = format
        self.encoding = encoding
        self.path = path
        self.sink = sink
        let last = index == plan.segmentCount - 1
        let headStart = index == 0 ? 0 : plan.boundaries[index] - MP3SegmentPlan.reservoirFrames
        let streamStart = index == 0 ? 0 : plan.seamWindow(index).upperBound
        let tailStart = last ? Int.max : plan.boundaries[index + 1] - MP3SegmentPlan.reservoirFrames
        head = MP3FrameRun(firstIndex: headStart)
        tail = MP3FrameRun(firstIndex: last ? plan.frames : tailStart)
        streamRange = streamStart..<tailStart
        // The first segment's encoder opens with the info tag's placeholder frame.
        nextFrame = index == 0 ? -1 : plan.firstEncodedFrame(index)
    }

    /// Encodes the segment's input; afterwards `failure` says whether it went wrong.
    /// - Parameter block: called after each block encoded.
    func run(produce: SampleProducer, stop: ParallelMP3Writer.StopSignal, block: () -> Void) {
        let input = plan.input(index)
        let owned = plan.ownedSamples(index)
        let channels = format.channels
        var position = input.lowerBound
        do throws(NarrationError) {
            // Made here, and gone when the segment is done: a store keeps frames, not encoders.
            let encoder = try LAMEEncoder(format: format, encoding: encoding, writesInfoTag: index == 0, path: path)
            try withoutActuallyEscaping(block) { (block) throws(NarrationError) in try produce(input) { (samples) throws(NarrationError) in
                guard !stop.isRaised else {
                    stopped = true
                    throw NarrationError(.fileSystem, "Stopped: another segment's encoder failed.")
                }
                try encoder.encode(samples) { (bytes) throws(NarrationError) in try take(bytes) }
                let frames = samples.count / channels
                let counted = max(0, min(owned.upperBound, position + frames) - max(owned.lowerBound, position))
                encoded.add(counted, ordering: .relaxed)
                position += frames
                block()
            } }
            guard position == input.upperBound else {
                throw NarrationError(.fileSystem, "The samples for \(sink.path) stopped at frame \(position) of \(input.upperBound); export again.")
            }
            try encoder.flush { (bytes) throws(NarrationError) in try take(bytes) }
            try writePending()
            guard splitter.leftover == 0, index < plan.segmentCount - 1 || nextFrame == plan.frames else {
                throw NarrationError(.fileSystem, "The MP3 encoder made \(nextFrame) frames of \(sink.path) where \(plan.frames) were due; export again.")
            }
            if index == 0 { infoTag = encoder.infoTag() }
            isEncoded = true
        } catch {
            failure = error
        }
    }

    /// Sends each whole frame in `bytes` where it belongs: dropped (pre-roll), held (around a
    /// seam) or streamed.
    private func take(_ bytes: UnsafeRawBufferPointer) throws(NarrationError) {
        try splitter.append(bytes) { (frame, frameBytes) throws(NarrationError) in
            defer { nextFrame += 1 }
            if nextFrame < 0 {
                infoTagLength = frame.length
                pending.append(contentsOf: frameBytes)
            } else if nextFrame < head.firstIndex {
                return
            } else if nextFrame < streamRange.lowerBound {
                head.append(frame, bytes: frameBytes)
            } else if nextFrame < streamRange.upperBound {
                pending.append(contentsOf: frameBytes)
                streamedBytes += frame.length
                if index == 0 { streamedCRC = MP3InfoTag.crc16(streamedCRC, frameBytes) }
                if pending.count >= 1 << 16 { try writePending() }
            } else {
                tail.append(frame, bytes: frameBytes)
            }
        }
    }

    private func writePending() throws(NarrationError) {
        try pending.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try sink.write(UnsafeRawBufferPointer(bytes)) }
        pending.removeAll(keepingCapacity: true)
    }
}
