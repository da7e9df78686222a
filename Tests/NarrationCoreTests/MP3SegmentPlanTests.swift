import NarrationCore
import Testing

@Suite("Splitting an MP3 stream into segments on the frame grid")
struct MP3SegmentPlanTests {
    @Test("the frame count is LAME's: 576 samples of delay, the end padded to a whole frame with at least 576 samples")
    func frameCount() {
        // 1152 × 10 − 576 samples fill frames exactly, but LAME pads at least 576: one frame more.
        #expect(MP3SegmentPlan(samples: 11_520 - 576, segments: 1, paddingPeriod: 49).frames == 11)
        #expect(MP3SegmentPlan(samples: 11_520 - 1_152, segments: 1, paddingPeriod: 49).frames == 10)
        #expect(MP3SegmentPlan(samples: 0, segments: 1, paddingPeriod: 49).frames == 1)
        // An hour at 44.1 kHz plus the delay is exactly 137 813 frames: the padding makes one more.
        #expect(MP3SegmentPlan(samples: 44_100 * 3_600, segments: 2, paddingPeriod: 49).frames == 137_814)
    }

    @Test("the padding bit repeats every 49 frames at 44.1 kHz, never at 32 and 48 kHz")
    func paddingPeriod() {
        #expect(MP3SegmentPlan.paddingPeriod(kbps: 64, sampleRate: 44_100) == 49)
        #expect(MP3SegmentPlan.paddingPeriod(kbps: 128, sampleRate: 44_100) == 49)
        #expect(MP3SegmentPlan.paddingPeriod(kbps: 128, sampleRate: 48_000) == 1)
        #expect(MP3SegmentPlan.paddingPeriod(kbps: 64, sampleRate: 32_000) == 1)
    }

    @Test("segments start where a single encoder's padding would be, each encoder fed from its pre-roll to past the next seam window")
    func segments() {
        let plan = MP3SegmentPlan(samples: 44_100 * 3_600, segments: 3, paddingPeriod: 49)
        #expect(plan.segmentCount == 3)
        #expect(plan.boundaries.first == 0 && plan.boundaries.last == plan.frames)
        for k in 1..<3 {
            #expect((plan.boundaries[k] - MP3SegmentPlan.preRollFrames) % 49 == 0)
            #expect(abs(plan.boundaries[k] - k * plan.frames / 3) <= 25)
            #expect(plan.input(k).lowerBound == (plan.boundaries[k] - MP3SegmentPlan.preRollFrames) * 1_152)
            #expect(plan.input(k - 1).upperBound == (plan.boundaries[k] + MP3SegmentPlan.seamWindow + 3) * 1_152 + 1_376)
        }
        #expect(plan.input(2).upperBound == plan.samples)
        let owned = (0..<3).map { plan.ownedSamples($0) }
        #expect(owned.map(\.count).reduce(0, +) == plan.samples && owned[1].lowerBound == owned[0].upperBound)
    }

    @Test("a stream shorter than two segments' worth is one segment")
    func shortStream() {
        let frames = 2 * MP3SegmentPlan.minimumSegmentFrames - 10
        #expect(MP3SegmentPlan(samples: frames * 1_152, segments: 2, paddingPeriod: 49).segmentCount == 1)
        #expect(MP3SegmentPlan(samples: (frames + 20) * 1_152, segments: 2, paddingPeriod: 49).segmentCount == 2)
    }

    @Test("the info tag's CRC-16 is CRC-16/ARC (check value 0xBB3D), and the seek table climbs from 0 to 253 for CBR")
    func crcAndSeekTable() {
        let check = Array("123456789".utf8).withUnsafeBufferPointer { MP3InfoTag.crc16(0, $0) }
        #expect(check == 0xBB3D)
        var tag = [UInt8](repeating: 0, count: 200)
        tag[21..<25] = ArraySlice("Info".utf8)
        tag[21 + 141] = UInt8(576 >> 4)
        tag[21 + 142] = UInt8((576 & 15) << 4)
        #expect(MP3InfoTag.rewrite(&tag, frames: 1_000, audioBytes: 209_000, samples: 1_000 * 1_152 - 576 - 1_000, kbps: 64, audioCRC: 0x1234))
        let table = Array(tag[(21 + 16)..<(21 + 116)])
        #expect(table[0] == 0 && table[99] == 253 && table == table.sorted())
        #expect(Int(tag[21 + 142] & 15) << 8 | Int(tag[21 + 143]) == 1_000, "padding")
        #expect(tag[21 + 152] == 0x12 && tag[21 + 153] == 0x34)
        var noMarker = [UInt8](repeating: 0, count: 200)
        #expect(!MP3InfoTag.rewrite(&noMarker, frames: 1, audioBytes: 1, samples: 1, kbps: 64, audioCRC: 0))
    }
}
