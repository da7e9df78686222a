public import struct Foundation.Date

extension PodcastFeed.Item {
    /// The feed item of a delivered export, from its sidecar: the audio at `deliveryPath` below
    /// the destination, and the chapters and transcripts the sidecar lists beside it, linked as
    /// `settings` says from the feed at `feedPath`.
    ///
    /// The description is the article's first paragraph that is not a heading (all its words:
    /// podcast apps cut it themselves), or who narrated it for an article without a text.
    public init(sidecar: Sidecar, deliveryPath: String, feedPath: String, settings: FeedSettings, published: Date) {
        let folder = deliveryPath.split(separator: "/").dropLast().joined(separator: "/")
        func link(_ file: Sidecar.FileEntry) -> PodcastFeed.Link {
            PodcastFeed.Link(url: settings.address(of: folder + "/" + file.name, fromFeedAt: feedPath), type: file.type)
        }
        let files = sidecar.files ?? []
        let firstParagraph = sidecar.paragraphs?.first { $0.kind == ScriptParagraph.Kind.paragraph.rawValue }?.text
        let narration = sidecar.narrator.isEmpty ? "Narrated with narrate." : "Narrated by \(sidecar.narrator)."
        self.init(
            guid: sidecar.articleId, title: sidecar.title, description: firstParagraph ?? narration, published: published,
            enclosure: PodcastFeed.Link(
                url: settings.address(of: deliveryPath, fromFeedAt: feedPath),
                type: ExportFormat(rawValue: sidecar.format)?.mimeType ?? "application/octet-stream"),
            bytes: sidecar.bytes, durationSeconds: Int(sidecar.duration.rounded(.up)), narrator: sidecar.narrator,
            chapters: files.first { $0.role == "chapters" }.map(link),
            transcripts: files.filter { $0.role == "transcript" }.map(link))
    }
}
