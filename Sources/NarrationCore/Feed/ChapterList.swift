public import Foundation

/// An export's chapters in the Podcasting 2.0 JSON chapters format (version 1.2): the file a feed
/// item links with `podcast:chapters`. Each chapter has its exact start and end in seconds (the
/// frame count over the rate, not rounded to the millisecond) and its title; the file names the
/// episode, its narrator, the podcast and the audio file it belongs to.
public struct ChapterList: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public let startTime: Double
        public let endTime: Double
        public let title: String
    }

    public let version: String
    public let title: String
    public let author: String
    public let podcastName: String
    public let fileName: String
    public let chapters: [Entry]

    /// The chapters of `plan` (see `ChapterStyle`), timed in the article's own rate.
    public init(plan: ExportPlan, fileName: String) {
        version = "1.2.0"
        title = plan.tags.title
        author = plan.tags.narrator
        podcastName = plan.tags.publication
        self.fileName = fileName
        let rate = Double(plan.format.sampleRate)
        chapters = plan.chapters.map { Entry(startTime: Double($0.startFrame) / rate, endTime: Double($0.endFrame) / rate, title: $0.title) }
    }

    /// The file's bytes: UTF-8 JSON, keys in a fixed order.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }
}
