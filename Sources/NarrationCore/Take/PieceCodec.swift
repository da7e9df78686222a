/// Lossless compression of the samples of a take's piece (signed 16-bit PCM, 1 or 2 channels,
/// interleaved), so that a page can upload what it kept during an outage faster than real time
/// on a slow link, and the take stays equal to the captured audio sample for sample.
///
/// A FLAC-like scheme, written here (and in the page's `piece-codec.js`, which writes the same
/// bytes for the same samples): each channel is predicted by one of FLAC's fixed polynomial
/// predictors, and what the predictor misses is Rice-coded. The payload carries neither its
/// length in frames nor its channel count: the message that carries it does.
///
/// The payload is a bit stream, most significant bit first, padded with zero bits to a whole
/// byte at its end and followed by nothing. The frames go in blocks of ``blockFrames`` (the last
/// block shorter); each block holds one sub-block per channel, in channel order, of its `n`
/// samples of that channel:
///
/// | bits | what |
/// |---|---|
/// | 3 | kind: 0–4 a fixed predictor of that order, 5 a constant, 6 verbatim samples (7 is refused) |
/// | constant: 16 | the value of every sample, signed (two's complement) |
/// | verbatim: 16 × `n` | the samples, signed |
/// | predictor of order `p` (`p` ≤ `n`): 16 × `p` | the first `p` samples ("warm-up"), signed |
/// | then, for each partition of the block's samples `128 j ..< min(128 (j + 1), n)` that holds a sample after the warm-up: 5 | the partition's Rice parameter `k`, 0–20 (21–31 are refused) |
/// | then, for each of its samples after the warm-up: `q` + 1 + `k` | the zig-zag residual `z` (0, -1, 1, -2… as 0, 1, 2, 3…): `q = z >> k` zero bits, a one bit, then `z`'s low `k` bits |
///
/// The predictor of order `p` predicts a sample from the `p` before it: 0; `s₁`; `2s₁ − s₂`;
/// `3s₁ − 3s₂ + s₃`; `4s₁ − 6s₂ + 4s₃ − s₄` (FLAC's). The residual is the sample minus the prediction.
///
/// The encoder picks, per sub-block: a constant when every sample is equal; otherwise the order
/// whose coded size is smallest (the lowest order on a tie), or verbatim samples when they are
/// strictly smaller still (white noise); per partition, `k` is the largest in 0…20 with
/// `m · 2ᵏ ≤ Σz` (`m` residuals; 0 when `Σz < 2m`), or `k − 1` when that codes the partition in
/// fewer bits. These rules make the output a function of the samples alone.
///
/// Decoding checks every field before it uses it (kinds, orders, parameters, the length of each
/// unary run, each sample's range, the end of the bytes, nothing after the last sample): damaged
/// or hostile bytes are refused with a sentence, never a trap, and the output is never larger
/// than the frames the caller asks for, at most ``maximumFrames``.
public enum PieceCodec {
    /// Frames per block: each block starts its prediction afresh.
    public static let blockFrames = 4_096
    /// Samples per Rice partition (each has its own parameter).
    public static let partitionSamples = 128
    /// The largest Rice parameter: a 4th-order residual of 16-bit samples is below 2¹⁹ in
    /// magnitude, so its zig-zag value is below 2²⁰.
    public static let largestRiceParameter = 20
    /// The most frames one payload decodes to: 10 s at 48 kHz, as ``TakePiece/maximumSampleBytes``.
    public static let maximumFrames: FrameCount = 10 * 48_000

    private static let constantKind: UInt32 = 5
    private static let verbatimKind: UInt32 = 6
    /// No valid zig-zag residual needs a unary run longer than this (2²⁰ with `k` = 0).
    private static let longestRun = 1 << 20

    // MARK: Encoding

    /// Compresses interleaved samples of `channels` channels (1 or 2).
    ///
    /// A wrong channel count or a torn frame is a bug of the caller, and traps.
    public static func encode(_ samples: [Int16], channels: Int) -> [UInt8] {
        precondition((1...2).contains(channels) && samples.count % channels == 0, "whole frames of 1 or 2 channels")
        let frames = samples.count / channels
        var writer = BitWriter(capacity: (3 * channels * (frames / blockFrames + 1) + 16 * samples.count) / 8 + 8)
        var channel = [Int32](repeating: 0, count: blockFrames)
        var residuals = [Int32](repeating: 0, count: blockFrames)
        var start = 0
        while start < frames {
            let count = min(blockFrames, frames - start)
            for index in 0..<channels {
                for frame in 0..<count { channel[frame] = Int32(samples[(start + frame) * channels + index]) }
                encodeSubBlock(channel, count: count, residuals: &residuals, into: &writer)
            }
            start += count
        }
        return writer.finished()
    }

    /// Compresses little-endian 16-bit PCM (what ``TakePiece/samples`` holds).
    public static func encode(pcm bytes: [UInt8], channels: Int) -> [UInt8] {
        precondition(bytes.count % 2 == 0, "whole 16-bit samples")
        let samples = (0..<bytes.count / 2).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
        return encode(samples, channels: channels)
    }

    private static func encodeSubBlock(_ samples: [Int32], count: Int, residuals: inout [Int32], into writer: inout BitWriter) {
        let first = samples[0]
        if (1..<count).allSatisfy({ samples[$0] == first }) {
            writer.write(constantKind, bits: 3)
            writer.write(UInt32(UInt16(bitPattern: Int16(first))), bits: 16)
            return
        }
        // The residuals of order p are the p-th differences: each order is the previous one differenced.
        for index in 0..<count { residuals[index] = samples[index] }
        var bestOrder = 0
        var bestBits = Int.max
        for order in 0...min(4, count) {
            if order > 0 {
                var index = count - 1
                while index >= order { residuals[index] -= residuals[index - 1]; index -= 1 }
            }
            let bits = 3 + 16 * order + codedBits(residuals, order: order, count: count)
            if bits < bestBits { bestBits = bits; bestOrder = order }
        }
        if 3 + 16 * count < bestBits {
            writer.write(verbatimKind, bits: 3)
            for index in 0..<count { writer.write(UInt32(UInt16(bitPattern: Int16(samples[index]))), bits: 16) }
            return
        }
        for index in 0..<count { residuals[index] = samples[index] }
        for order in 0..<bestOrder {
            var index = count - 1
            while index > order { residuals[index] -= residuals[index - 1]; index -= 1 }
        }
        writer.write(UInt32(bestOrder), bits: 3)
        for index in 0..<bestOrder { writer.write(UInt32(UInt16(bitPattern: Int16(samples[index]))), bits: 16) }
        forEachPartition(order: bestOrder, count: count) { start, end in
            let parameter = riceParameter(residuals, from: start, to: end)
            writer.write(UInt32(parameter), bits: 5)
            for index in start..<end {
                let zigZag = UInt32(bitPattern: (residuals[index] << 1) ^ (residuals[index] >> 31))
                writer.writeUnary(Int(zigZag >> UInt32(parameter)))
                writer.write(zigZag & ((1 << UInt32(parameter)) - 1), bits: parameter)
            }
        }
    }

    /// The partitions of a sub-block of `count` samples that hold residuals (after `order` warm-up samples).
    private static func forEachPartition(order: Int, count: Int, _ body: (_ start: Int, _ end: Int) -> Void) {
        var partition = 0
        while partition < count {
            let start = max(partition, order)
            let end = min(partition + partitionSamples, count)
            if start < end { body(start, end) }
            partition += partitionSamples
        }
    }

    /// The bits of every partition's parameter and residuals, for the residuals of `order`.
    private static func codedBits(_ residuals: [Int32], order: Int, count: Int) -> Int {
        var total = 0
        forEachPartition(order: order, count: count) { start, end in
            total += 5 + riceBits(residuals, from: start, to: end, parameter: riceParameter(residuals, from: start, to: end))
        }
        return total
    }

    private static func riceParameter(_ residuals: [Int32], from start: Int, to end: Int) -> Int {
        var sum = 0
        for index in start..<end { sum += Int(UInt32(bitPattern: (residuals[index] << 1) ^ (residuals[index] >> 31))) }
        let count = end - start
        var parameter = 0
        while parameter < largestRiceParameter && count << (parameter + 1) <= sum { parameter += 1 }
        if parameter > 0, riceBits(residuals, from: start, to: end, parameter: parameter - 1)
            < riceBits(residuals, from: start, to: end, parameter: parameter) {
            parameter -= 1
        }
        return parameter
    }

    private static func riceBits(_ residuals: [Int32], from start: Int, to end: Int, parameter: Int) -> Int {
        var bits = (end - start) * (parameter + 1)
        for index in start..<end { bits += Int(UInt32(bitPattern: (residuals[index] << 1) ^ (residuals[index] >> 31)) >> UInt32(parameter)) }
        return bits
    }

    // MARK: Decoding

    /// Decompresses a payload to `frames` frames of `channels` interleaved samples.
    /// - Throws: `.usage` with a sentence when the channel count is not 1 or 2, the frames are
    ///   negative or more than ``maximumFrames``, or the bytes are not exactly a payload of that
    ///   many frames (they end too soon, hold a field out of range, a sample beyond 16 bits, or
    ///   bytes after the last sample).
    public static func decode(_ payload: [UInt8], channels: Int, frames: FrameCount) throws(NarrationError) -> [Int16] {
        guard (1...2).contains(channels) else {
            throw .usage("The page sent a piece of a take in \(channels) channels, where narrate takes 1 or 2: reload the page.")
        }
        guard (0...maximumFrames).contains(frames) else {
            throw .usage("The page sent a piece of a take of \(frames) frames, where narrate takes up to \(maximumFrames): reload the page.")
        }
        var output = [Int16](repeating: 0, count: frames * channels)
        let failure: NarrationError? = payload.withUnsafeBufferPointer { bytes in
            output.withUnsafeMutableBufferPointer { samples in
                do throws(NarrationError) {
                    var reader = BitReader(bytes)
                    var start = 0
                    while start < frames {
                        let count = min(blockFrames, frames - start)
                        for channel in 0..<channels {
                            try decodeSubBlock(&reader, into: samples, first: start * channels + channel, stride: channels, count: count)
                        }
                        start += count
                    }
                    try reader.finish()
                    return nil
                } catch {
                    return error
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Decompresses a payload to little-endian 16-bit PCM (what ``TakePiece/samples`` holds).
    /// - Throws: as ``decode(_:channels:frames:)``.
    public static func decodePCM(_ payload: [UInt8], channels: Int, frames: FrameCount) throws(NarrationError) -> [UInt8] {
        let samples = try decode(payload, channels: channels, frames: frames)
        var bytes = [UInt8](repeating: 0, count: 2 * samples.count)
        for (index, sample) in samples.enumerated() {
            bytes[2 * index] = UInt8(truncatingIfNeeded: sample)
            bytes[2 * index + 1] = UInt8(truncatingIfNeeded: sample >> 8)
        }
        return bytes
    }

    fileprivate static func damaged(_ what: String) -> NarrationError {
        .usage("The page sent a piece of a take whose compressed samples narrate cannot read (\(what)): reload the page.")
    }

    private static func decodeSubBlock(
        _ reader: inout BitReader, into samples: UnsafeMutableBufferPointer<Int16>, first: Int, stride: Int, count: Int
    ) throws(NarrationError) {
        let kind = try reader.read(3)
        switch kind {
        case constantKind:
            let value = Int16(bitPattern: UInt16(try reader.read(16)))
            for index in 0..<count { samples[first + index * stride] = value }
        case verbatimKind:
            for index in 0..<count { samples[first + index * stride] = Int16(bitPattern: UInt16(try reader.read(16))) }
        case 0...4:
            let order = Int(kind)
            guard order <= count else { throw damaged("a predictor of order \(order) for \(count) samples") }
            var s1 = 0, s2 = 0, s3 = 0, s4 = 0  // the samples before, nearest first
            for index in 0..<order {
                let value = Int16(bitPattern: UInt16(try reader.read(16)))
                samples[first + index * stride] = value
                (s4, s3, s2, s1) = (s3, s2, s1, Int(value))
            }
            var partition = 0
            while partition < count {
                let start = max(partition, order)
                let end = min(partition + partitionSamples, count)
                partition += partitionSamples
                guard start < end else { continue }
                let parameter = Int(try reader.read(5))
                guard parameter <= largestRiceParameter else { throw damaged("a Rice parameter of \(parameter)") }
                for index in start..<end {
                    let run = try reader.unary(atMost: longestRun)
                    let zigZag = run << parameter | Int(try reader.read(parameter))
                    let residual = (zigZag >> 1) ^ -(zigZag & 1)
                    let prediction: Int
                    switch order {
                    case 0: prediction = 0
                    case 1: prediction = s1
                    case 2: prediction = 2 * s1 - s2
                    case 3: prediction = 3 * s1 - 3 * s2 + s3
                    default: prediction = 4 * s1 - 6 * s2 + 4 * s3 - s4
                    }
                    let value = prediction + residual
                    guard value >= Int(Int16.min) && value <= Int(Int16.max) else { throw damaged("a sample beyond 16 bits") }
                    samples[first + index * stride] = Int16(truncatingIfNeeded: value)
                    (s4, s3, s2, s1) = (s3, s2, s1, value)
                }
            }
        default:
            throw damaged("a block of unknown kind \(kind)")
        }
    }
}

/// Bits written most significant first into bytes.
private struct BitWriter {
    private var bytes: [UInt8]
    private var pending: UInt64 = 0
    private var pendingBits = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Writes the low `bits` (0…32) of `value`.
    mutating func write(_ value: UInt32, bits: Int) {
        pending = pending << UInt64(bits) | UInt64(value)
        pendingBits += bits
        while pendingBits >= 8 {
            pendingBits -= 8
            bytes.append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingBits)))
        }
        pending &= (1 << UInt64(pendingBits)) - 1
    }

    /// Writes `zeros` zero bits, then a one bit.
    mutating func writeUnary(_ zeros: Int) {
        var left = zeros
        while left >= 32 { write(0, bits: 32); left -= 32 }
        write(1, bits: left + 1)
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finished() -> [UInt8] {
        if pendingBits > 0 { write(0, bits: 8 - pendingBits) }
        return bytes
    }
}

/// Bits read most significant first, each read checked against the end of the bytes.
private struct BitReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var next = 0
    /// Bits not yet read, left-aligned; the bits below `count` are zero.
    private var cache: UInt64 = 0
    private var count = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private mutating func refill() {
        while count <= 56 && next < bytes.count {
            cache |= UInt64(bytes[next]) << UInt64(56 - count)
            next += 1
            count += 8
        }
    }

    /// The next `bits` (0…32) as a number.
    mutating func read(_ bits: Int) throws(NarrationError) -> UInt32 {
        if count < bits {
            refill()
            guard count >= bits else { throw PieceCodec.damaged("the bytes end before the last sample") }
        }
        guard bits > 0 else { return 0 }
        let value = UInt32(truncatingIfNeeded: cache >> UInt64(64 - bits))
        cache <<= UInt64(bits)
        count -= bits
        return value
    }

    /// The number of zero bits before the next one bit (which is read too).
    mutating func unary(atMost longest: Int) throws(NarrationError) -> Int {
        var zeros = 0
        while true {
            if count == 0 {
                refill()
                guard count > 0 else { throw PieceCodec.damaged("the bytes end before the last sample") }
            }
            let leading = cache.leadingZeroBitCount
            if leading < count {
                zeros += leading
                cache <<= UInt64(leading + 1)
                count -= leading + 1
                guard zeros <= longest else { break }
                return zeros
            }
            zeros += count
            cache = 0
            count = 0
            guard zeros <= longest else { break }
        }
        throw PieceCodec.damaged("a residual longer than 16-bit audio can have")
    }

    /// Checks that only the zero bits that pad the last byte are left.
    func finish() throws(NarrationError) {
        guard next == bytes.count, count < 8, cache == 0 else {
            throw PieceCodec.damaged("bytes after the last sample")
        }
    }
}
