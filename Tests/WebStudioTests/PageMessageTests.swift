import NarrationCore
import Studio
import Testing
@testable import WebStudio

@Suite("Messages from the page")
struct PageMessageTests {
    @Test("keys are the terminal studio's keys; other messages carry their fields")
    func decoded() throws {
        #expect(try PageMessage.decode(#"{"type":"key","key":"r"}"#) == .key(.character("r")))
        #expect(try PageMessage.decode(#"{"type":"key","key":"space"}"#) == .key(.character(" ")))
        #expect(try PageMessage.decode(#"{"type":"key","key":"enter"}"#) == .key(.enter))
        #expect(try PageMessage.decode(#"{"type":"select","position":2}"#) == .select(2))
        #expect(try PageMessage.decode(#"{"type":"microphone","source":"browser"}"#) == .microphone(.browser))
        #expect(try PageMessage.decode(#"{"type":"punch","chunk":2,"seconds":1.5}"#) == .punch(chunk: 2, seconds: 1.5))
        #expect(try PageMessage.decode(#"{"type":"open","article":"k3v9"}"#) == .open("k3v9"))
        #expect(try PageMessage.decode(#"{"type":"preRoll","chunk":2,"seconds":1.5,"lead":1.5}"#) == .preRoll(chunk: 2, seconds: 1.5, lead: 1.5))
    }

    @Test("messages that act on a chunk carry its id")
    func chunkIDs() throws {
        #expect(try PageMessage.decode(#"{"type":"key","key":"x","id":"c1"}"#) == .key(.character("x"), chunk: ChunkID("c1")))
        #expect(try PageMessage.decode(#"{"type":"select","id":"c2"}"#) == .selectChunk(ChunkID("c2")))
        #expect(try PageMessage.decode(#"{"type":"punch","chunk":2,"id":"c2","seconds":1.5}"#) == .punch(chunk: 2, seconds: 1.5, id: ChunkID("c2")))
        #expect(throws: NarrationError.usage("The page sent a chunk id narrate cannot read: reload the page.")) {
            try PageMessage.decode(#"{"type":"key","key":"x","id":""}"#)
        }
    }

    @Test("a cut is made or left by its take's id and its number; cut all names none; each is a change of the article (record)")
    func cuts() throws {
        #expect(try PageMessage.decode(#"{"type":"cut","id":"c2","cut":1,"action":"accept"}"#) == .cut(ChunkID("c2"), number: 1, accept: true))
        #expect(try PageMessage.decode(#"{"type":"cut","id":"c2","cut":0,"action":"dismiss"}"#) == .cut(ChunkID("c2"), number: 0, accept: false))
        #expect(try PageMessage.decode(#"{"type":"cutAll"}"#) == .cutAll)
        #expect(MessageAction.of(.cut(ChunkID("c2"), number: 1, accept: true)) == MessageAction(action: .record, target: .open))
        #expect(MessageAction.of(.cutAll) == MessageAction(action: .record, target: .open))
        #expect(throws: NarrationError.usage("The page sent an incomplete \"cut\" message: reload the page.")) {
            try PageMessage.decode(#"{"type":"cut","cut":1,"action":"accept"}"#)
        }
        #expect(throws: NarrationError.usage("The page named cut -1, which no take has: reload the page.")) {
            try PageMessage.decode(#"{"type":"cut","id":"c2","cut":-1,"action":"accept"}"#)
        }
        #expect(throws: NarrationError.usage("The page asked to \"erase\" a cut: reload the page.")) {
            try PageMessage.decode(#"{"type":"cut","id":"c2","cut":1,"action":"erase"}"#)
        }
    }

    @Test("a take the page uploads: its start names it, its stop gives its length, a resume asks where to go on from, a keep keeps what arrived")
    func uploads() throws {
        let key = try #require(TakeUploadKey("0123456789abcdef0123456789abcdef"))
        #expect(try PageMessage.decode(#"{"type":"key","key":"r","take":"0123456789abcdef0123456789abcdef"}"#) == .uploading(.key(.character("r")), take: key))
        #expect(
            try PageMessage.decode(#"{"type":"punch","chunk":2,"seconds":1.5,"take":"0123456789abcdef0123456789abcdef"}"#)
                == .uploading(.punch(chunk: 2, seconds: 1.5), take: key))
        #expect(try PageMessage.decode(#"{"type":"stop","take":"0123456789abcdef0123456789abcdef","frames":44100}"#) == .stopTake(key, frames: 44_100))
        #expect(try PageMessage.decode(#"{"type":"resume","take":"0123456789abcdef0123456789abcdef"}"#) == .resumeTake(key, frames: nil))
        #expect(try PageMessage.decode(#"{"type":"resume","take":"0123456789abcdef0123456789abcdef","frames":0}"#) == .resumeTake(key, frames: 0))
        #expect(MessageAction.of(.uploading(.key(.character("q")), take: key)) == MessageAction(action: .send, target: .open))
        #expect(MessageAction.of(.resumeTake(key, frames: nil)) == MessageAction(action: .record, target: .open))
        #expect(try PageMessage.decode(#"{"type":"keep","take":"0123456789abcdef0123456789abcdef"}"#) == .keepTake(key))
        #expect(MessageAction.of(.keepTake(key)) == MessageAction(action: .record, target: .open))
        #expect(throws: NarrationError.usage("The page sent an incomplete \"keep\" message: reload the page.")) {
            try PageMessage.decode(#"{"type":"keep"}"#)
        }
        #expect(throws: NarrationError.usage("The page named a take with a key narrate cannot read: reload the page.")) {
            try PageMessage.decode(#"{"type":"resume","take":"../../etc"}"#)
        }
        #expect(throws: NarrationError.usage("The page gave a take -1 frames, which no take has: reload the page.")) {
            try PageMessage.decode(#"{"type":"stop","take":"0123456789abcdef0123456789abcdef","frames":-1}"#)
        }
        #expect(throws: NarrationError.usage("The page gave a take 4294967296 frames, which no take has: reload the page.")) {
            try PageMessage.decode(#"{"type":"stop","take":"0123456789abcdef0123456789abcdef","frames":4294967296}"#)
        }
        #expect(throws: NarrationError.usage("The page sent an incomplete \"stop\" message: reload the page.")) {
            try PageMessage.decode(#"{"type":"stop","take":"0123456789abcdef0123456789abcdef"}"#)
        }
    }

    @Test("what the page cannot have meant is refused with a sentence", arguments: [
        (#"not json"#, "The page sent a message narrate cannot read: reload the page."),
        (#"{"type":"dance"}"#, "The page sent an unknown message \"dance\": reload the page."),
        (#"{"type":"key","key":"ctrl-alt-del"}"#, "The page sent an unknown key \"ctrl-alt-del\": reload the page."),
        (#"{"type":"select"}"#, "The page sent an incomplete \"select\" message: reload the page."),
        (#"{"type":"microphone","source":"radio"}"#, "The page sent an incomplete \"microphone\" message: reload the page."),
        (#"{"type":"punch","chunk":1,"seconds":-1}"#, "The page asked to correct chunk 1 from -1.0 s, which is not a time in a chunk (0 to 86400 s): reload the page."),
        (#"{"type":"punch","chunk":1,"seconds":1e300}"#, "The page asked to correct chunk 1 from 1e+300 s, which is not a time in a chunk (0 to 86400 s): reload the page."),
        (#"{"type":"punch","chunk":1,"seconds":86400.5}"#, "The page asked to correct chunk 1 from 86400.5 s, which is not a time in a chunk (0 to 86400 s): reload the page."),
        (#"{"type":"preRoll","chunk":1,"seconds":1,"lead":1e300}"#, "The page sent an incomplete \"preRoll\" message: reload the page."),
        (#"{"type":"preRoll","chunk":1,"seconds":1}"#, "The page sent an incomplete \"preRoll\" message: reload the page."),
    ])
    func refused(text: String, sentence: String) {
        #expect(throws: NarrationError.usage(sentence)) { try PageMessage.decode(text) }
    }
}
