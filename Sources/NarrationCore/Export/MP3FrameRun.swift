/// Consecutive frames of one encoder's stream held in memory, numbered by their place in the
/// whole file's frame sequence (the global frame index), with the payload addressing the bit
/// reservoir needs: a frame's main data may begin up to 511 bytes back, in earlier frames'
/// payloads.
public struct MP3FrameRun: Sendable {
    /// Global index of the first frame held; frames before it were passed on or dropped.
    public let firstIndex: Int
    public private(set) var bytes: [UInt8] = []
    public private(set) var frames: [MP3Frame] = []
    /// Where each frame's payload starts in the run's payload stream (its payloads back to back).
    private var payloadStarts: [Int] = []
    private var payloadLength = 0

    public init(firstIndex: Int) {
        self.firstIndex = firstIndex
    }

    public var endIndex: Int { firstIndex + frames.count }

    /// Appends the next frame of the stream (its `offset` is ignored).
    public mutating func append(_ frame: MP3Frame, bytes frameBytes: UnsafeBufferPointer<UInt8>) {
        var placed = frame
        placed.offset = bytes.count
        bytes.append(contentsOf: frameBytes)
        frames.append(placed)
        payloadStarts.append(payloadLength)
        payloadLength += frame.length - frame.sideInfoEnd
    }

    /// The frame with global index `index`, if held.
    public func frame(_ index: Int) -> MP3Frame? {
        frames.indices.contains(index - firstIndex) ? frames[index - firstIndex] : nil
    }

    /// The bytes of frames `range` (global indexes, all held), as they go into the file.
    public func bytes(ofFrames range: Range<Int>) -> ArraySlice<UInt8> {
        guard !range.isEmpty else { return [] }
        let first = frames[range.lowerBound - firstIndex], last = frames[range.upperBound - 1 - firstIndex]
        return bytes[first.offset..<(last.offset + last.length)]
    }

    /// Header (after the sync word's four bytes), CRC and side info of frame `index`.
    func sideInfo(_ index: Int) -> ArraySlice<UInt8> {
        let frame = frames[index - firstIndex]
        return bytes[(frame.offset + 4)..<(frame.offset + frame.sideInfoEnd)]
    }

    /// Where in `bytes` the payload byte `distance` bytes before frame `index`'s payload is; nil
    /// when that is before the run's first frame.
    func byteBefore(frame index: Int, distance: Int) -> Int? {
        let position = payloadStarts[index - firstIndex] - distance
        guard position >= 0 else { return nil }
        var local = index - firstIndex
        while payloadStarts[local] > position { local -= 1 }
        let frame = frames[local]
        return frame.offset + frame.sideInfoEnd + (position - payloadStarts[local])
    }

    /// The main data of frame `index`: its bits, the last byte's unused bits cleared; nil when it
    /// begins before the run.
    func mainData(_ index: Int) -> [UInt8]? {
        let frame = frames[index - firstIndex]
        let byteCount = (frame.mainDataBits + 7) / 8
        var data: [UInt8] = []
        data.reserveCapacity(byteCount)
        var position = payloadStarts[index - firstIndex] - frame.mainDataBegin
        guard position >= 0 else { return nil }
        var local = index - firstIndex
        while payloadStarts[local] > position { local -= 1 }
        while data.count < byteCount {
            guard local < frames.count else { return nil }
            let held = frames[local]
            let payloadEnd = payloadStarts[local] + held.length - held.sideInfoEnd
            if position >= payloadEnd {
                local += 1
                continue
            }
            data.append(bytes[held.offset + held.sideInfoEnd + position - payloadStarts[local]])
            position += 1
        }
        if frame.mainDataBits % 8 != 0 { data[byteCount - 1] &= UInt8(truncatingIfNeeded: 0xFF << (8 - frame.mainDataBits % 8)) }
        return data
    }

    /// Sets the byte at `offset` of `bytes` (a payload byte the reservoir patch moves).
    mutating func setByte(at offset: Int, to value: UInt8) {
        bytes[offset] = value
    }
}
