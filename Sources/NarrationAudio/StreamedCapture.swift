import Foundation
public import NarrationCore
import Synchronization

/// A capture source fed with 16-bit PCM that another program sends: the web studio's browser
/// microphone, whose page sends little-endian samples over a WebSocket every ≤ 100 ms.
///
/// A page that uploads its take in numbered pieces (`receive(_:at:)`) may send a piece again
/// after a break, or a piece from further on: what the stream holds already is not taken twice,
/// and a piece past a gap is refused, naming the frame the stream waits for. `end(atFrame:)`
/// ends the stream once every frame up to the take's length has come, however late.
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

    /// What became of a numbered piece.
    public enum Receipt: Equatable, Sendable {
        /// Its frames past what the stream held were taken; it now holds `received` frames.
        case taken(received: FrameCount)
        /// The stream held all of it already.
        case duplicate(received: FrameCount)
        /// It starts after a gap: the stream waits for frame `expected` first.
        case gap(expected: FrameCount)
        /// It runs past the take's end, or arrived after the stream ended.
        case pastTheEnd(received: FrameCount)
    }

    private struct Stream {
        /// Frames the stream has taken, counted from the take's first (a resumed take's count
        /// starts at the frames its file holds).
        var received: FrameCount
        /// The take's length, once the page has said it.
        var endFrame: FrameCount?
        var samples: [Int32] = []
        var consumed = 0
        var ended = false
        var failure: NarrationError?
        var oddByte: UInt8?
    }

    private let stream: Mutex<Stream>
    private let arrived = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - format: the article's format; the sender sends its channels interleaved at its rate.
    ///   - periodSeconds: the most one read returns.
    ///   - startFrame: the frames the take holds already (a take whose upload resumes).
    public init(name: String, format: AudioFormat, periodSeconds: Double = 0.01, startFrame: FrameCount = 0) {
        self.stream = Mutex(Stream(received: startFrame))
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
            let before = stream.samples.count - stream.consumed
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
            stream.received += (stream.samples.count - stream.consumed - before) / format.channels
        }
        arrived.signal()
    }

    /// Takes the piece of little-endian 16-bit PCM that begins at frame `frame` of the take:
    /// the part the stream does not hold yet. `bytes` holds whole frames (the caller checks).
    public func receive(_ bytes: [UInt8], at frame: FrameCount) -> Receipt {
        let frameBytes = 2 * format.channels
        precondition(bytes.count % frameBytes == 0 && frame >= 0, "a piece is whole frames at a frame of the take")
        let frames = bytes.count / frameBytes
        let receipt: Receipt = stream.withLock { stream in
            guard frame <= stream.received else { return .gap(expected: stream.received) }
            let end = frame + frames
            if end <= stream.received { return .duplicate(received: stream.received) }
            if stream.ended || stream.endFrame.map({ end > $0 }) == true { return .pastTheEnd(received: stream.received) }
            let skip = (stream.received - frame) * frameBytes
            stream.samples.reserveCapacity(stream.samples.count + (bytes.count - skip) / 2)
            var index = skip
            while index < bytes.count {
                stream.samples.append(Self.sample(bytes[index], bytes[index + 1]))
                index += 2
            }
            stream.received = end
            if stream.endFrame == end { stream.ended = true }
            return .taken(received: end)
        }
        arrived.signal()
        return receipt
    }

    /// The take is `frame` frames long: the stream ends once it holds them all (at once if it
    /// does). A page sends its pieces as it captures them and stores them a moment later, so a
    /// page that comes back after a reload may know fewer frames than the stream holds: then the
    /// take is what the stream holds. False, and nothing changes, when another length was given.
    public func end(atFrame frame: FrameCount) -> Bool {
        let ended: Bool? = stream.withLock { stream in
            let end = max(frame, stream.received)
            guard stream.endFrame == nil || stream.endFrame == end else { return nil }
            stream.endFrame = end
            if stream.received == end { stream.ended = true }
            return stream.ended
        }
        if ended == true { arrived.signal() }
        return ended != nil
    }

    /// The frames taken so far, counted from the take's first.
    public var receivedFrames: FrameCount { stream.withLock { $0.received } }

    /// The take's length, once given by `end(atFrame:)`.
    public var endFrame: FrameCount? { stream.withLock { $0.endFrame } }

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
