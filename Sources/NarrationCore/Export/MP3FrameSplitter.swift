/// Cuts the bytes an MP3 encoder hands out, in pieces of any size, into whole frames.
public struct MP3FrameSplitter: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Adds `bytes` and calls `body` with each frame now complete, in order: the frame (its
    /// `offset` 0) and its bytes.
    /// - Throws: `fileCorrupt` when the bytes are not MPEG-1 Layer III frames.
    public mutating func append(
        _ bytes: UnsafeRawBufferPointer, _ body: (MP3Frame, UnsafeBufferPointer<UInt8>) throws(NarrationError) -> Void
    ) throws(NarrationError) {
        pending.append(contentsOf: bytes)
        var start = 0
        let count = pending.count
        try pending.withUnsafeBufferPointer { (all) throws(NarrationError) in
            while start + 4 <= count {
                guard let frame = MP3Frame(in: all, at: start) else {
                    guard start + 4 <= count, all[start] == 0xFF, all[start + 1] & 0xE0 == 0xE0, Self.fitsBeyond(all, start) else {
                        throw NarrationError(.fileCorrupt, "The MP3 encoder made a frame narrate cannot read, at byte \(start) of a segment.")
                    }
                    break  // a header whose frame is not all here yet
                }
                var local = frame
                local.offset = 0
                try body(local, UnsafeBufferPointer(rebasing: all[start..<(start + frame.length)]))
                start += frame.length
            }
        }
        pending.removeFirst(start)
    }

    /// Whatever is left: nothing, when the encoder ended on a whole frame.
    public var leftover: Int { pending.count }

    /// Whether the header at `start` is a valid one whose frame runs past the bytes there are.
    private static func fitsBeyond(_ all: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        let h2 = all[start + 2]
        let bitrate = MP3Frame.bitrates[Int(h2 >> 4)], rate = MP3Frame.sampleRates[Int((h2 >> 2) & 3)]
        guard bitrate > 0, rate > 0, (all[start + 1] >> 3) & 3 == 3 else { return false }
        return start + 144 * bitrate * 1_000 / rate + Int((h2 >> 1) & 1) > all.count
    }
}
