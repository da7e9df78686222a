import Foundation
import NarrationTestSupport
import Testing

/// A data root whose config.toml has a folder destination `share` and a profile `pod` (MP3,
/// untouched samples) carrying transcripts and a feed item, and an article with a text of three
/// paragraphs, one take each, queued under `pod`: what the destination tests deliver.
struct SharedDestination {
    let fixture: EndToEndFixture
    let narrate: Narrate
    let share: URL
    let article: String
    /// Where the delivery puts its files, below `share`: `Daily Post/<date>`.
    let deliveryFolder: URL
    /// The audio's file name: `Budget passes-<id>.mp3`.
    let audioName: String
    /// A file outside the data root and the share, and its bytes.
    let outside: URL
    let outsideBytes = Data("someone's precious file\n".utf8)
    /// Every recording's bytes once the article was recorded.
    let recordings: [String: Data]

    init(share: URL) throws {
        self.share = share
        fixture = try EndToEndFixture()
        narrate = try fixture.narrate(config: """
            narrator = "Ann Lee"
            publication = "Daily Post"

            [destinations.share]
            url = "\(share.path)"

            [profiles.pod]
            base = "archive"
            format = "mp3"
            carries = ["audio", "transcript", "feed"]
            """)

        let text = fixture.folder.file("budget.md")
        try "# Budget passes\n\nThe council passed the budget on Tuesday.\n\nBus fares stay the same until March.\n"
            .write(to: text, atomically: true, encoding: .utf8)
        let created = try narrate.run("new", "Budget passes", "--text", text.path, "--json")
        try #require(created.status == 0, "\(created.stderr)")
        article = try #require((try created.json() as? [String: Any])?["id"] as? String)
        for _ in 0..<3 {
            let take = try narrate.run("record", "--device", "vmic", "--duration", "0.8")
            try #require(take.status == 0, "\(take.stderr)")
        }
        let queued = try narrate.run("queue", "--profile", "pod")
        try #require(queued.status == 0, "\(queued.stderr)")
        let job = try #require((try narrate.run("outbox", "list", "--json").json() as? [[String: Any]])?.first)
        let sidecarPath = try #require(job["sidecar"] as? String)
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecarPath))) as? [String: Any])
        audioName = try #require(sidecar["file"] as? String)
        deliveryFolder = share.appendingPathComponent("Daily Post/\(try #require(sidecar["date"] as? String))")
        outside = fixture.folder.file("outside.txt")
        try outsideBytes.write(to: outside)
        recordings = try fixture.recordings()
    }

    /// `Daily Post/`: where the feed and its lock file are.
    var publicationFolder: URL { share.appendingPathComponent("Daily Post") }

    /// The names in the delivery folder, sorted; none when it does not exist.
    func delivered() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: deliveryFolder.path)) ?? []).sorted()
    }

    /// `narrate submit` of the queued article to `share`.
    func submit() throws -> Narrate.Result {
        try narrate.run("submit", "--article", article, "--profile", "pod", "--to", "share")
    }

    /// The line submit prints when the files were delivered but the feed refused `reason`.
    func feedNotUpdated(_ reason: String) -> String {
        "\(audioName) was delivered to \(share.path), but its podcast feed was not updated: \(reason) The file stays in the outbox; \"narrate outbox push\" tries again.\n"
    }

    /// The job's state in `outbox list --json`.
    func jobState() throws -> String? {
        (try narrate.run("outbox", "list", "--json").json() as? [[String: Any]])?.first?["state"] as? String
    }

    /// Plants a symbolic link at `link` pointing at `target`.
    func plant(_ link: URL, to target: URL) throws {
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    }
}
