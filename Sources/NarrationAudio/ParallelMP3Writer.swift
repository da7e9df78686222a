import Foundation
public import NarrationCore
import Synchronization

/// Hands `write` the samples of frames `range` of the stream being encoded, in blocks of any
/// size, exactly `range.count` frames in all. Called on several threads at once, each call with
/// its own range.
public typealias SampleProducer = @Sendable (
    _ range: Range<FrameCount>, _ write: (UnsafeBufferPointer<Int32>) throws(NarrationError) -> Void
) throws(NarrationError) -> Void

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
    /// it on `segments` threads (the calling thread is one of them).
    /// - Parameter progress: called on this thread with the frames encoded so far.
    /// - Throws: what `produce` throws; `usage` for encodings LAME refuses; `fileSystem`,
    ///   `diskFull`. `path` is removed on any failure.
    public static func write(
        creating path: String, format: AudioFormat, encoding: MP3Encoding, tag: ID3Tag, frames: FrameCount, segments: Int,
        produce: @escaping SampleProducer, progress: (FrameCount) -> Void
    ) throws(NarrationError) {
        guard case .constant(let kbps) = encoding else { preconditionFailure("a parallel encode is CBR") }
        let plan = plan(frames: frames, format: format, kbps: kbps, segments: segments)
        let file = try DescriptorFile(creating: path)
        do throws(NarrationError) {
            let tagBytes = tag.bytes
            try tagBytes.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try file.write(UnsafeRawBufferPointer(bytes)) }
            let folder = (path as NSString).deletingLastPathComponent
            var jobs: [SegmentEncoding] = []
            for index in 0..<plan.segmentCount {
                let encoder = try LAMEEncoder(format: format, encoding: encoding, writesInfoTag: index == 0, path: path)
                let sink = index == 0 ? file : try DescriptorFile(scratchIn: folder.isEmpty ? "." : folder)
                jobs.append(SegmentEncoding(index: index, plan: plan, encoder: encoder, sink: sink))
            }
            try encode(jobs, produce: produce, progress: progress)
            try stitch(jobs, plan: plan, kbps: kbps, into: file, infoTagOffset: tagBytes.count)
            try file.sync()
            file.close()
        } catch {
            file.remove()
            throw error
        }
    }

    private static func plan(frames: FrameCount, format: AudioFormat, kbps: Int, segments: Int) -> MP3SegmentPlan {
        MP3SegmentPlan(samples: frames, segments: segments, paddingPeriod: MP3SegmentPlan.paddingPeriod(kbps: kbps, sampleRate: format.sampleRate))
    }

    /// Runs the first job on this thread and the others on threads of their own; a failure stops
    /// them all.
    private static func encode(_ jobs: [SegmentEncoding], produce: @escaping SampleProducer, progress: (FrameCount) -> Void) throws(NarrationError) {
        let stop = StopSignal()
        let finished = DispatchSemaphore(value: 0)
        for job in jobs.dropFirst() {
            let thread = Thread {
                job.run(produce: produce, stop: stop) {}
                if job.failure != nil { stop.raise() }
                finished.signal()
            }
            thread.name = "MP3 segment \(job.index + 1)"
            thread.start()
        }
        jobs[0].run(produce: produce, stop: stop) {
            progress(jobs.reduce(0) { $0 + $1.encoded.load(ordering: .relaxed) })
        }
        if jobs[0].failure != nil { stop.raise() }
        for _ in jobs.dropFirst() { finished.wait() }
        progress(jobs.reduce(0) { $0 + $1.encoded.load(ordering: .relaxed) })
        // The first failure that was not a job stopping because another had failed.
        if let failure = jobs.lazy.filter({ !$0.stopped }).compactMap(\.failure).first { throw failure }
    }

    /// Raised by the first job that fails, so that the others stop at their next block.
    fileprivate final class StopSignal: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .relaxed) }
        var isRaised: Bool { raised.load(ordering: .relaxed) }
    }

    /// Joins the segments at their seams, copies them into `file` after the first and writes
    /// the info tag for the whole stream over the first encoder's placeholder.
    private static func stitch(_ jobs: [SegmentEncoding], plan: MP3SegmentPlan, kbps: Int, into file: DescriptorFile, infoTagOffset: Int) throws(NarrationError) {
        var seams = [0]
        for index in 1..<jobs.count {
            guard let join = MP3Seam.join(&jobs[index - 1].tail, jobs[index].head, within: plan.seamWindow(index)) else {
                throw NarrationError(.fileSystem, "The MP3 encoders could not be joined at segment \(index + 1) of \(file.path); export again.")
            }
            seams.append(join.frame)
        }
        var crc = jobs[0].streamedCRC
        var audioBytes = jobs[0].streamedBytes
        func append(_ bytes: UnsafeRawBufferPointer) throws(NarrationError) {
            try file.write(bytes)
            crc = MP3InfoTag.crc16(crc, bytes.assumingMemoryBound(to: UInt8.self))
            audioBytes += bytes.count
        }
        func append(_ bytes: ArraySlice<UInt8>) throws(NarrationError) {
            try bytes.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try append(UnsafeRawBufferPointer(buffer)) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        for (index, job) in jobs.enumerated() {
            if index > 0 {
                try append(job.head.bytes(ofFrames: seams[index]..<job.head.endIndex))
                var offset = 0
                while true {
                    let read = try buffer.withUnsafeMutableBufferPointer { (bytes) throws(NarrationError) in
                        try job.sink.read(into: UnsafeMutableRawBufferPointer(bytes), at: offset)
                    }
                    guard read > 0 else { break }
                    try append(buffer[0..<read])
                    offset += read
                }
                job.sink.close()
            }
            if index < jobs.count - 1 {
                try append(job.tail.bytes(ofFrames: job.tail.firstIndex..<seams[index + 1]))
            }
        }
        var infoTag = jobs[0].encoder.infoTag()
        guard infoTag.count == jobs[0].infoTagLength,
            MP3InfoTag.rewrite(&infoTag, frames: plan.frames, audioBytes: audioBytes, samples: plan.samples, kbps: kbps, audioCRC: crc)
        else {
            throw NarrationError(.fileSystem, "The MP3 encoder's info tag for \(file.path) is not the one narrate knows; export again.")
        }
        try infoTag.withUnsafeBufferPointer { (bytes) throws(NarrationError) in try file.write(UnsafeRawBufferPointer(bytes), at: infoTagOffset) }
    }
}

/// One segment of a parallel encode: its encoder, and where its frames go. Run by one thread;
/// its results are read by the caller after that thread has finished.
private final class SegmentEncoding: @unchecked Sendable {
    let index: Int
    let plan: MP3SegmentPlan
    let encoder: LAMEEncoder
    /// The file for the first segment, scratch space for the others.
    let sink: DescriptorFile
    /// Frames up to the seam window's end, held to join this segment to the one before.
    var head: MP3FrameRun
    /// Frames from just before the next boundary on, held to join the next segment to this one.
    var tail: MP3FrameRun
    private let streamRange: Range<Int>
    private(set) var streamedBytes = 0
    /// CRC-16 of the streamed frames (used for the first segment, whose frames open the stream).
    private(set) var streamedCRC: UInt16 = 0
    private(set) var infoTagLength = 0
    private(set) var failure: NarrationError?
    /// Whether the job stopped because another failed.
    private(set) var stopped = false
    /// Samples of the segment's own stretch encoded so far.
    let encoded = Atomic<Int>(0)
    private var nextFrame: Int
    private var splitter = MP3FrameSplitter()
    private var pending: [UInt8] = []

    init(index: Int, plan: MP3SegmentPlan, encoder: LAMEEncoder, sink: DescriptorFile) {
        self.index = index
        self.plan = plan
        self.encoder = encoder
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
        let channels = encoder.format.channels
        var position = input.lowerBound
        do throws(NarrationError) {
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
