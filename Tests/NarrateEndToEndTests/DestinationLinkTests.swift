import Foundation
import Glibc
import NarrationTestSupport
import Testing

/// A destination folder others can write in: a symbolic link planted there as narrate's
/// temporary file, the feed's lock file or the feed itself is someone else's file. It is never
/// followed: the delivery or the feed change is refused with one sentence naming the link, the
/// link and its target are left as they are, and every recording is unchanged.
@Suite("Symbolic links at a shared destination are someone else's")
struct DestinationLinkTests {
    /// What narrate says of a link where it writes (`verb` "write") or reads back ("read") its own file.
    static func linkRefused(_ verb: String) -> String {
        "it is a symbolic link, and narrate never \(verb)s through one; remove it, then try again."
    }

    @Test("a link as the audio's temporary file: submit refuses naming it (not 'another command is writing'); nothing is delivered")
    func partialLink() throws {
        let share = TemporaryFolder("narrate-share")
        let destination = try SharedDestination(share: share.url)
        let link = destination.deliveryFolder.appendingPathComponent(".\(destination.audioName).narrate-partial")
        try destination.plant(link, to: destination.outside)

        let submitted = try destination.submit()
        #expect(submitted.status == 1)
        #expect(submitted.stderr == "Cannot write \(link.path): \(Self.linkRefused("write"))\n")
        #expect(try Data(contentsOf: destination.outside) == destination.outsideBytes)
        #expect(destination.delivered() == [link.lastPathComponent])
        #expect(try destination.jobState() == "queued")
        #expect(try destination.fixture.recordings() == destination.recordings)
    }

    @Test("another user's file at the audio's temporary name is left to its owner: submit refuses naming it", .enabled(if: getuid() == 0, "giving a file to another user needs root"))
    func othersPartial() throws {
        let share = TemporaryFolder("narrate-share")
        let destination = try SharedDestination(share: share.url)
        let partial = destination.deliveryFolder.appendingPathComponent(".\(destination.audioName).narrate-partial")
        try FileManager.default.createDirectory(at: destination.deliveryFolder, withIntermediateDirectories: true)
        try destination.outsideBytes.write(to: partial)
        #expect(chown(partial.path, 65534, 65534) == 0)

        let submitted = try destination.submit()
        #expect(submitted.status == 1)
        #expect(submitted.stderr == "Cannot write \(partial.path): it is another user's file, not one narrate made; remove it, then try again.\n")
        #expect(try Data(contentsOf: partial) == destination.outsideBytes)
        #expect(destination.delivered() == [partial.lastPathComponent])
        #expect(try destination.fixture.recordings() == destination.recordings)
    }

    @Test("a link as the feed's lock file: the files are delivered, the feed is not changed, and no file is made at the link's target")
    func lockLink() throws {
        let share = TemporaryFolder("narrate-share")
        let destination = try SharedDestination(share: share.url)
        let link = destination.publicationFolder.appendingPathComponent(".feed.xml.lock")
        let nowhere = destination.fixture.folder.file("made-by-narrate")
        for target in [nowhere, destination.outside] {
            try destination.plant(link, to: target)
            let submitted = try destination.submit()
            #expect(submitted.status == 1)
            #expect(submitted.stderr == destination.feedNotUpdated("Cannot write \(link.path): \(Self.linkRefused("write"))"))
            #expect(!FileManager.default.fileExists(atPath: nowhere.path))
            #expect(try Data(contentsOf: destination.outside) == destination.outsideBytes)
            #expect(!FileManager.default.fileExists(atPath: destination.publicationFolder.appendingPathComponent("feed.xml").path))
            #expect(destination.delivered().contains(destination.audioName))
        }
        #expect(try destination.fixture.recordings() == destination.recordings)
    }

    @Test("a link as feed.xml: its target's items are never read or published; the feed command refuses it too")
    func feedLink() throws {
        let share = TemporaryFolder("narrate-share")
        let destination = try SharedDestination(share: share.url)
        let othersFeed = destination.fixture.folder.file("private-feed.xml")
        let othersBytes = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Private</title><link>./</link><description>Not for the public</description>
            <item><title>Private item</title><guid isPermaLink="false">private-guid</guid><enclosure url="private.mp3" length="1" type="audio/mpeg"/></item>
            </channel></rss>

            """.utf8)
        try othersBytes.write(to: othersFeed)
        let link = destination.publicationFolder.appendingPathComponent("feed.xml")
        try destination.plant(link, to: othersFeed)

        let submitted = try destination.submit()
        #expect(submitted.status == 1)
        #expect(submitted.stderr == destination.feedNotUpdated("Cannot read \(link.path): \(Self.linkRefused("read"))"))
        #expect(try Data(contentsOf: othersFeed) == othersBytes)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == othersFeed.path)
        #expect(try destination.jobState() == "delivered")

        let shown = try destination.narrate.run("feed", "--to", "share", "--json")
        #expect(shown.status == 1)
        #expect(shown.stderr == "Cannot read \(link.path): \(Self.linkRefused("read"))\n")
        #expect(!shown.stdout.contains("private-guid"))
        #expect(try destination.fixture.recordings() == destination.recordings)
    }

    @Test("the publication's folder as a link into someone else's folder: nothing is written there, and neither feed is read")
    func publicationFolderLink() throws {
        let share = TemporaryFolder("narrate-share")
        let destination = try SharedDestination(share: share.url)
        let others = destination.fixture.folder.file("someone-else")
        try FileManager.default.createDirectory(at: others, withIntermediateDirectories: true)
        try destination.outsideBytes.write(to: others.appendingPathComponent("feed.xml"))
        try destination.plant(destination.publicationFolder, to: others)

        let submitted = try destination.submit()
        #expect(submitted.status == 1)
        #expect(submitted.stderr == "Cannot write \(destination.publicationFolder.path): \(Self.linkRefused("write"))\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: others.path) == ["feed.xml"])
        #expect(try Data(contentsOf: others.appendingPathComponent("feed.xml")) == destination.outsideBytes)
        #expect(try destination.jobState() == "queued")
        #expect(try destination.fixture.recordings() == destination.recordings)
    }

    @Test("a full destination: nothing is left there, no transcript or chapters either, and the sentence says so", .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func fullDestination() throws {
        let share = try TemporaryMount(sizeKiB: 16)
        let destination = try SharedDestination(share: share.url)
        let submitted = try destination.submit()
        #expect(submitted.status == 1)
        #expect(submitted.stderr == "The disk holding \(destination.deliveryFolder.path) is full; nothing was delivered there. Free some space there, then try again.\n")
        #expect(destination.delivered() == [])
        #expect(try destination.jobState() == "queued")
        #expect(try destination.fixture.recordings() == destination.recordings)
    }
}
