import Foundation
import Narration
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("One MP3 encoded on several cores")
struct ParallelMP3WriterTests {
    /// Speech with bursts of white noise every 7 s (transients: short blocks, a hungry bit
    /// reservoir), the second channel of stereo different from the first.
    private func stress(_ format: AudioFormat, seconds: Double) throws -> [Int32] {
        let speech = Signals.samples(try Signals.speech(format, seconds: seconds), bitsPerSample: format.bitsPerSample)
        let noise = Signals.samples(Signals.noise(seconds: seconds, seed: 7, sampleRate: format.sampleRate), bitsPerSample: 16)
        let frames = format.frames(forSeconds: seconds)
        let burst = format.frames(forSeconds: 0.3), period = format.frames(forSeconds: 7)
        var samples = [Int32](repeating: 0, count: frames * format.channels)
        for frame in 0..<frames {
            for channel in 0..<format.channels {
                var value = Int64(speech[frame * format.channels + channel]) / 2
                if frame % period < burst || (channel == 1 && frame % 5 == 0) { value += Int64(noise[frame]) }
                samples[frame * format.channels + channel] = Int32(clamping: value)
            }
        }
        return samples
    }

    private func encodeInOneStream(_ samples: [Int32], format: AudioFormat, kbps: Int, to url: URL) throws {
        let writer = try MP3Writer(creating: url.path, format: format, encoding: .constant(kbps: kbps), tag: ID3Tag())
        for start in stride(from: 0, to: samples.count, by: 10_000 * format.channels) {
            try samples.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[start..<min(samples.count, start + 10_000 * format.channels)])) }
        }
        try writer.close()
    }

    /// - Returns: the progress reported.
    private func encodeInParallel(_ samples: [Int32], format: AudioFormat, kbps: Int, segments: Int, to url: URL) throws -> [FrameCount] {
        let frames = samples.count / format.channels
        let channels = format.channels
        var reported: [FrameCount] = []
        try ParallelMP3Writer.write(
            creating: url.path, format: format, encoding: .constant(kbps: kbps), tag: ID3Tag(), frames: frames, segments: segments, helpers: ParallelWork.mp3EncoderThreads,
            produce: { (range, write) throws(NarrationError) in
                // Blocks of an odd size, so that no block edge falls on the frame grid.
                for start in stride(from: range.lowerBound, to: range.upperBound, by: 7_777) {
                    let end = min(range.upperBound, start + 7_777)
                    try samples.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
                        try write(UnsafeBufferPointer(rebasing: buffer[(start * channels)..<(end * channels)]))
                    }
                }
            },
            progress: { reported.append($0) })
        return reported
    }

    @Test(
        "the stitched file decodes to exactly the samples a single-stream encode decodes to, with the same info tag",
        arguments: [
            (AudioFormat.speech, 64, 2, 150.0), (AudioFormat.speech, 128, 3, 200.0),
            (AudioFormat(sampleRate: 48_000, channels: 1, bitsPerSample: 16), 128, 2, 150.0),
            (AudioFormat(sampleRate: 32_000, channels: 1, bitsPerSample: 16), 64, 2, 200.0),
            (AudioFormat(sampleRate: 44_100, channels: 2, bitsPerSample: 16), 128, 2, 150.0),
            (AudioFormat(sampleRate: 44_100, channels: 1, bitsPerSample: 24), 96, 2, 150.0),
        ])
    func matchesOneStream(format: AudioFormat, kbps: Int, segments: Int, seconds: Double) throws {
        let folder = TemporaryFolder()
        let samples = try stress(format, seconds: seconds)
        let frames = samples.count / format.channels
        let single = folder.file("single.mp3"), parallel = folder.file("parallel.mp3")
        try encodeInOneStream(samples, format: format, kbps: kbps, to: single)
        #expect(ParallelMP3Writer.segments(for: frames, format: format, encoding: .constant(kbps: kbps), cores: segments) == segments)
        let progress = try encodeInParallel(samples, format: format, kbps: kbps, segments: segments, to: parallel)
        #expect(progress.last == frames, "progress ends at every frame")
        #expect(progress == progress.sorted(), "progress never goes back")

        let reference = try SoundFileReader(path: single.path).readAll()
        let stitched = try SoundFileReader(path: parallel.path).readAll()
        #expect(stitched.count == frames * format.channels, "the stitched file decodes to exactly the frames encoded")
        #expect(reference.count == stitched.count)
        let firstDifference = zip(reference, stitched).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "decoded samples differ from frame \((firstDifference ?? 0) / format.channels) on")

        // The info tag: frame count, bytes, seek table, delay and padding and music length are
        // those LAME wrote for the single stream (the tag follows the empty ID3 tag); its CRCs are
        // those of the stitched file's own bytes (where a seam's reservoir was patched, the frames
        // after it are laid out differently, so the bytes and their CRC differ from the single
        // stream's while the samples do not).
        let singleBytes = [UInt8](try Data(contentsOf: single)), parallelBytes = [UInt8](try Data(contentsOf: parallel))
        let tagStart = ID3Tag().bytes.count
        let tagLength = try #require(singleBytes.withUnsafeBufferPointer { MP3Frame(in: $0, at: tagStart) }).length
        #expect(parallelBytes.count == singleBytes.count)
        let marker = try #require((tagStart..<(tagStart + 40)).first { parallelBytes[$0..<($0 + 4)].elementsEqual("Info".utf8) })
        #expect(parallelBytes[tagStart..<(marker + 152)] == singleBytes[tagStart..<(marker + 152)])
        #expect(parallelBytes[(marker + 156)..<(tagStart + tagLength)] == singleBytes[(marker + 156)..<(tagStart + tagLength)])
        func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {  // bit by bit, as the standard states it
            var crc: UInt16 = 0
            for byte in bytes {
                crc ^= UInt16(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
            }
            return crc
        }
        let musicCRC = UInt16(parallelBytes[marker + 152]) << 8 | UInt16(parallelBytes[marker + 153])
        let tagCRC = UInt16(parallelBytes[marker + 154]) << 8 | UInt16(parallelBytes[marker + 155])
        #expect(musicCRC == crc16(parallelBytes[(tagStart + tagLength)...]))
        #expect(tagCRC == crc16(parallelBytes[tagStart..<(marker + 154)]))
        let differing = zip(parallelBytes, singleBytes).filter { $0 != $1 }.count
        print("figure: \(format), \(kbps) kbit/s, \(segments) segments: \(differing) of \(parallelBytes.count) bytes differ from the single stream")
        // ffmpeg decodes it without a word of complaint.
        let ffmpeg = try Signals.run("ffmpeg", ["-v", "error", "-i", parallel.path, "-f", "null", "-"])
        #expect(ffmpeg.isEmpty, "ffmpeg: \(ffmpeg)")
    }

    @Test("one segment per 20 s chunk, the stream grown by a chunk and encoded again from the store: only the last two are encoded, and it decodes to the one-stream samples but near a patched seam")
    func grownFromStore() throws {
        let folder = TemporaryFolder()
        let format = AudioFormat.speech
        let samples = try stress(format, seconds: 150)
        let chunk = format.frames(forSeconds: 20)
        let store = MP3SegmentStore(scratchFolder: folder.url.path)
        /// Encodes the first `frames` frames in one segment per chunk; the keys name each input.
        func encode(_ frames: FrameCount, to url: URL) throws -> MP3SegmentReuse {
            let plan = MP3SegmentPlan(
                samples: frames, starts: Array(stride(from: 0, to: frames, by: chunk)),
                paddingPeriod: MP3SegmentPlan.paddingPeriod(kbps: 128, sampleRate: format.sampleRate))
            let keys = (0..<plan.segmentCount).map { k in
                "\(plan.input(k)) \(plan.boundaries[k])..<\(plan.boundaries[k + 1]) " + (k == plan.segmentCount - 1 ? "last of \(plan.frames)" : "")
            }
            return try ParallelMP3Writer.write(
                creating: url.path, format: format, encoding: .constant(kbps: 128), tag: ID3Tag(), plan: plan, threads: 2, reusing: (store, keys), helpers: ParallelWork.mp3EncoderThreads,
                produce: { (range, write) throws(NarrationError) in
                    try samples.withUnsafeBufferPointer { (buffer) throws(NarrationError) in
                        try write(UnsafeBufferPointer(rebasing: buffer[range.lowerBound..<range.upperBound]))
                    }
                }, progress: { _ in })
        }
        #expect(try encode(130 * format.sampleRate, to: folder.file("130.mp3")) == MP3SegmentReuse(encoded: 6, reused: 0))
        #expect(store.count == 6, "a chunk starting 10 s before the end joins the segment before it")
        let grown = folder.file("150.mp3"), single = folder.file("single.mp3")
        #expect(try encode(samples.count, to: grown) == MP3SegmentReuse(encoded: 2, reused: 5))
        #expect(store.count == 7, "the store keeps the grown stream's segments only")
        try encodeInOneStream(samples, format: format, kbps: 128, to: single)
        let reference = try SoundFileReader(path: single.path).readAll()
        let stitched = try SoundFileReader(path: grown.path).readAll()
        #expect(stitched.count == samples.count)
        // Where the two encoders agreed on a frame inside a seam's window, the samples are the
        // single stream's. Where they did not, the seam's reservoir was patched and the frames
        // around it decode a little differently: the recipe measured 1 such seam in 29 at chunk
        // boundaries. Any difference lies in a seam's window, and is below -50 dBFS.
        let plan = MP3SegmentPlan(
            samples: samples.count, starts: Array(stride(from: 0, to: samples.count, by: chunk)),
            paddingPeriod: MP3SegmentPlan.paddingPeriod(kbps: 128, sampleRate: format.sampleRate))
        let windows = (1..<plan.segmentCount).map { k in
            (plan.boundaries[k] - 3) * MP3Frame.samplesPerFrame..<(plan.boundaries[k] + MP3SegmentPlan.seamWindow) * MP3Frame.samplesPerFrame
        }
        let differing = zip(reference, stitched).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.allSatisfy { offset in windows.contains { $0.contains(offset) } }, "differences only at seams")
        let largest = zip(reference, stitched).map { abs(Double($0) - Double($1)) }.max() ?? 0
        #expect(largest / Double(Int32.max) < pow(10, -50.0 / 20), "a difference of \(20 * log10(max(largest, 1) / Double(Int32.max))) dBFS")
        print("figure: one segment per 20 s chunk: \(differing.count) of \(samples.count) decoded samples differ from the single stream, by at most \(20 * log10(max(largest, 1) / Double(Int32.max))) dBFS")
        let ffmpeg = try Signals.run("ffmpeg", ["-v", "error", "-i", grown.path, "-f", "null", "-"])
        #expect(ffmpeg.isEmpty, "ffmpeg: \(ffmpeg)")
    }

    @Test("a stream too short, VBR, a rate below 32 kHz or one core is one stream")
    func oneStreamWhenSplittingDoesNotPay() {
        let minute = AudioFormat.speech.frames(forSeconds: 60)
        #expect(ParallelMP3Writer.segments(for: 10 * minute, format: .speech, encoding: .constant(kbps: 64), cores: 2) == 2)
        #expect(ParallelMP3Writer.segments(for: 10 * minute, format: .speech, encoding: .constant(kbps: 64), cores: 4) == 4)
        #expect(ParallelMP3Writer.segments(for: 10 * minute, format: .speech, encoding: .constant(kbps: 64), cores: 1) == 1)
        #expect(ParallelMP3Writer.segments(for: 10 * minute, format: .speech, encoding: .variable(quality: 4), cores: 2) == 1)
        let mpeg2 = AudioFormat(sampleRate: 22_050, channels: 1, bitsPerSample: 16)
        #expect(ParallelMP3Writer.segments(for: 10 * minute, format: mpeg2, encoding: .constant(kbps: 64), cores: 2) == 1)
        #expect(ParallelMP3Writer.segments(for: minute, format: .speech, encoding: .constant(kbps: 64), cores: 2) == 1)
    }

    @Test("a failing segment stops the others; the file is removed and the error is the producer's")
    func failureRemovesTheFile() throws {
        let folder = TemporaryFolder()
        let url = folder.file("broken.mp3")
        let frames = AudioFormat.speech.frames(forSeconds: 150)
        #expect(throws: NarrationError.self) {
            try ParallelMP3Writer.write(
                creating: url.path, format: .speech, encoding: .constant(kbps: 64), tag: ID3Tag(), frames: frames, segments: 2, helpers: ParallelWork.mp3EncoderThreads,
                produce: { (range, write) throws(NarrationError) in
                    let silence = [Int32](repeating: 0, count: 4_096)
                    var done = range.lowerBound
                    while done < range.upperBound {
                        if range.lowerBound > 0 && done > range.lowerBound + 100_000 { throw NarrationError(.fileCorrupt, "chunk 7 ended early") }
                        let count = min(4_096, range.upperBound - done)
                        try silence.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try write(UnsafeBufferPointer(rebasing: buffer[0..<count])) }
                        done += count
                    }
                }, progress: { _ in })
        }
        let error = #expect(throws: NarrationError.self) {
            try ParallelMP3Writer.write(
                creating: url.path, format: .speech, encoding: .constant(kbps: 64), tag: ID3Tag(), frames: frames, segments: 2, helpers: ParallelWork.mp3EncoderThreads,
                produce: { (range, write) throws(NarrationError) in
                    guard range.lowerBound == 0 else { throw NarrationError(.fileCorrupt, "chunk 7 ended early") }
                    let silence = [Int32](repeating: 0, count: range.count)
                    try silence.withUnsafeBufferPointer { (buffer) throws(NarrationError) in try write(buffer) }
                },
                progress: { _ in })
        }
        #expect(error?.message == "chunk 7 ended early")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no scratch file is left")
    }
}
