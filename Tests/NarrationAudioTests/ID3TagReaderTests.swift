import Foundation
import NarrationAudio
import NarrationCore
import NarrationTestSupport
import Testing

@Suite("Reading ID3 tags back")
struct ID3TagReaderTests {
    @Test("what the exporter's writer puts in reads back: UTF-8 texts, the article id, chapters with times and titles")
    func roundTrip() throws {
        var tag = ID3Tag()
        tag.addText("TIT2", "Hafen & Haus 港口 café")
        tag.addText("TPE1", "Zoë Ng")
        tag.addUserText(description: "NARRATE_ARTICLE_ID", value: "ab12cd34")
        let tags = ExportTags(title: "t", narrator: "", publication: "", date: "", comment: "", articleID: "ab12cd34")
        let plan = ExportPlan(format: .speech, chunkFrames: [44_100, 22_050], tags: tags)
        tag.addChapters(plan.chapters, rate: 44_100)
        let bytes = tag.bytes + [0xFF, 0xFB, 0x90, 0x00]  // an MP3 frame header follows the tag
        let read = try ID3TagReader(bytes)
        #expect(read.majorVersion == 4 && read.size == tag.bytes.count)
        #expect(read.text("TIT2") == "Hafen & Haus 港口 café")
        #expect(read.text("TPE1") == "Zoë Ng")
        #expect(read.text("TALB") == nil)
        #expect(read.userText("NARRATE_ARTICLE_ID") == "ab12cd34")
        #expect(read.chapters == [
            .init(elementID: "chp1", startMilliseconds: 0, endMilliseconds: 1_000, title: "Part 1"),
            .init(elementID: "chp2", startMilliseconds: 1_000, endMilliseconds: 1_500, title: "Part 2"),
        ])
    }

    @Test("a v2.3 tag mutagen writes in UTF-16 and Latin-1 reads back too")
    func mutagenTag() throws {
        let folder = TemporaryFolder("narrate-id3")
        let file = folder.file("tagged.mp3")
        let script = """
            import sys, mutagen.id3 as m
            t = m.ID3()
            t.add(m.TIT2(encoding=1, text="Zoë 港口"))
            t.add(m.TALB(encoding=0, text="Café Post"))
            t.add(m.TXXX(encoding=1, desc="NARRATE_ARTICLE_ID", text="xy"))
            t.add(m.CHAP(element_id="c1", start_time=0, end_time=2500, sub_frames=[m.TIT2(encoding=1, text="Eins")]))
            t.save(sys.argv[1], v2_version=3)
            """
        _ = try Signals.run("/usr/bin/python3", ["-c", script, file.path])
        let read = try ID3TagReader([UInt8](try Data(contentsOf: file)))
        #expect(read.majorVersion == 3)
        #expect(read.text("TIT2") == "Zoë 港口")
        #expect(read.text("TALB") == "Café Post")
        #expect(read.userText("NARRATE_ARTICLE_ID") == "xy")
        #expect(read.chapters == [.init(elementID: "c1", startMilliseconds: 0, endMilliseconds: 2_500, title: "Eins")])
    }

    @Test("no tag, another version, a size past the end and a frame past the tag are refused with a reason", arguments: [
        ([0xFF, 0xFB, 0x90, 0x00, 0, 0, 0, 0, 0, 0], "The file has no ID3v2 tag at its start."),
        (Array("ID3".utf8) + [2, 0, 0, 0, 0, 0, 0], "The file's ID3 tag is version 2.2; only 2.3 and 2.4 are read."),
        (Array("ID3".utf8) + [4, 0, 0, 0, 0, 1, 0], "The file's ID3 tag states 128 bytes but the file holds fewer."),
        (Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0x0B] + Array("TIT2".utf8) + [0, 0, 0, 0x7F, 0, 0, 3], "The file's ID3 frame TIT2 runs past the end of the tag."),
    ] as [([UInt8], String)])
    func damaged(bytes: [UInt8], reason: String) {
        #expect(throws: NarrationError(.fileCorrupt, reason)) { try ID3TagReader(bytes) }
    }
}
