import Foundation
public import NarrationCore
import Synchronization

/// A capture source fed with 16-bit PCM that another program sends: the web studio's browser
/// microphone, whose page sends little-endian samples over a WebSocket every ≤ 100 ms.
///
/// `append(_:)` and `endInput()`/`fail(_:)` may be called from any thread; one thread reads (the
/// take's capture thread). What was appended is always read before the end or failure is
/// reported, so a stop or a dropped connection keeps every sample that reached the server.
public final class StreamedCapture: CaptureSource {
    public let name: String
    public let format: AudioFormat
    public let periodFrames: FrameCount
    public var overruns: Int { 0 }  // nothing is dropped: the queue holds what the reader has not read
    public var drainsOnStop: Bool { true }

    private struct Stream {
        var samples: [Int32] = []
        var consumed = 0
        var ended = false
        var failure: NarrationError?
        var oddByte: UInt8?
    }

    private let stream = Mutex(Stream())
    private let arrived = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - format: the article's format; the sender sends its channels interleaved at its rate.
    ///   - periodSeconds: the most one read returns.
    public init(name: String, format: AudioFormat, periodSeconds: Double = 0.01) {
        self.name = name
        self.format = format
        self.periodFrames = max(1, format.frames(forSeconds: periodSeconds))
    }

    public func start() throws(NarrationError) {}

    /// Appends little-endian signed 16-bit samples, channels interleaved. Bytes after the end
    /// are ignored; a byte left over from an odd-length message joins the next one.
    public func append(_ bytes: some Collection<UInt8>) {
        stream.withLock { stream in
            guard !stream.ended else { return }
            var iterator = bytes.makeIterator()
            if let low = stream.oddByte, let high = iterator.next() {
                stream.samples.append(Self.sample(low, high))
                stream.oddByte = nil
            }
            while let low = iterator.next() {
                guard let high = iterator.next() else {
                    stream.oddByte = low
                    break
                }
                stream.samples.append(Self.sample(low, high))
            }
        }
        arrived.signal()
    }

    private static func sample(_ low: UInt8, _ high: UInt8) -> Int32 {
        Int32(Int16(bitPattern: UInt16(low) | UInt16(high) << 8)) << 16
    }

    /// No more audio will come; what was appended is still read.
    public func endInput() {
        stream.withLock { $0.ended = true }
        arrived.signal()
    }

    /// The sender went away: what was appended is still read, then `read` throws `error`.
    public func fail(_ error: NarrationError) {
        stream.withLock { stream in
            stream.ended = true
            stream.failure = stream.failure ?? error
        }
        arrived.signal()
    }

    public var hasEnded: Bool {
        stream.withLock { $0.ended && $0.samples.count - $0.consumed < format.channels }
    }

    /// Waits up to 20 ms for audio; returns whole frames only.
    public func read(into samples: UnsafeMutableBufferPointer<Int32>, frames: FrameCount) throws(NarrationError) -> FrameCount {
        let read = try take(into: samples, frames: frames)
        guard read == 0, !hasEnded else { return read }
        _ = arrived.wait(timeout: .now() + .milliseconds(20))
        return try take(into: samples, frames: frames)
    }

    /// What the stream holds now, up to `frames` (and a period); 0 when it holds nothing.
    private func take(into samples: UnsafeMutableBufferPointer<Int32>, frames: FrameCount) throws(NarrationError) -> FrameCount {
        let channels = format.channels
        let result: Result<FrameCount, NarrationError> = stream.withLock { stream in
            let available = (stream.samples.count - stream.consumed) / channels
            if available == 0 {
                if stream.ended, let failure = stream.failure {
                    stream.failure = nil  // reported once; afterwards the source has simply ended
                    return .failure(failure)
                }
                return .success(0)
            }
            let count = min(available, frames, periodFrames)
            for index in 0..<(count * channels) { samples[index] = stream.samples[stream.consumed + index] }
            stream.consumed += count * channels
            if stream.consumed > 1 << 16 {  // drop what was read, now and then
                stream.samples.removeFirst(stream.consumed)
                stream.consumed = 0
            }
            return .success(count)
        }
        return try result.get()
    }

    public func close() throws(NarrationError) {
        endInput()
    }
}
