import Foundation
import NarrationCore

/// The author and publication day a page states in its markup rather than its text: `<meta
/// name="author">`, `<meta property="article:published_time">` and their kin, schema.org
/// JSON-LD (`author`, `datePublished`), and microdata or links in the body (`itemprop="author"`,
/// `rel="author"`, `itemprop="datePublished"`, `<time pubdate>`).
struct PageMetadata {
    /// From the body's own markup (`rel`, `itemprop`): what the reader sees on the page.
    private(set) var markedAuthor: String?
    /// From `<meta>` or JSON-LD: what the page tells machines.
    private(set) var declaredAuthor: String?
    private(set) var markedDay: String?
    private(set) var declaredDay: String?

    /// The author: the body's markup first, then what the head declares.
    var author: String? { markedAuthor ?? declaredAuthor }
    /// The publication day: what the head declares first (it is exact), then the body's markup.
    var day: String? { declaredDay ?? markedDay }

    /// Looks at one element of the page (anywhere, `<head>` and `<script>` too).
    mutating func look(at node: HTMLNode, name: String) {
        guard node.hasAttributes || name == "script" else { return }
        var attributes: [String: String] = [:]
        node.forEachAttribute { attribute, value in attributes[attribute] = value }
        switch name {
        case "meta":
            let key = (attributes["name"] ?? attributes["property"] ?? attributes["itemprop"] ?? "").lowercased()
            guard let content = attributes["content"] else { return }
            if Self.authorKeys.contains(key), !content.contains("://") {
                declaredAuthor = declaredAuthor ?? Self.cleanAuthor(content)
            } else if Self.dayKeys.contains(key) {
                declaredDay = declaredDay ?? Self.day(of: content)
            }
        case "script":
            guard attributes["type"]?.lowercased() == "application/ld+json", let json = node.textContent else { return }
            readJSONLD(json)
        default:
            let itemprop = attributes["itemprop"]?.lowercased().split(separator: " ") ?? []
            let rel = attributes["rel"]?.lowercased().split(separator: " ") ?? []
            if markedAuthor == nil, itemprop.contains("author") || rel.contains("author") || itemprop.contains("creator") {
                let text = node.textContent.map { PageFurnitureText.words($0).joined(separator: " ") } ?? ""
                if !text.isEmpty { markedAuthor = Self.cleanAuthor(text) }
            }
            if markedDay == nil, itemprop.contains("datepublished") || (name == "time" && attributes["pubdate"] != nil) {
                markedDay = Self.day(of: attributes["datetime"] ?? attributes["content"] ?? node.textContent ?? "")
            }
        }
    }

    /// Reads `author` and `datePublished` of the first article-like object in JSON-LD (at the top,
    /// in an array, or in `@graph`).
    private mutating func readJSONLD(_ json: String) {
        guard declaredAuthor == nil || declaredDay == nil,
              let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) else { return }
        var objects: [[String: Any]] = []
        if let object = value as? [String: Any] { objects = [object] + ((object["@graph"] as? [[String: Any]]) ?? []) }
        if let array = value as? [[String: Any]] { objects = array.flatMap { [$0] + (($0["@graph"] as? [[String: Any]]) ?? []) } }
        for object in objects {
            if declaredDay == nil, let published = object["datePublished"] as? String { declaredDay = Self.day(of: published) }
            if declaredAuthor == nil, let author = Self.name(of: object["author"]) { declaredAuthor = author }
        }
    }

    private static func name(of author: Any?) -> String? {
        if let text = author as? String, !text.contains("://") { return cleanAuthor(text) }
        if let object = author as? [String: Any] { return (object["name"] as? String).flatMap(cleanAuthor) }
        if let array = author as? [Any] {
            let names = array.compactMap(name(of:))
            return names.isEmpty ? nil : names.joined(separator: " and ")
        }
        return nil
    }

    /// "By Ann Smith" and "Ann Smith" both give "Ann Smith"; nil for an empty name.
    static func cleanAuthor(_ text: String) -> String? {
        let words = PageFurnitureText.words(text)
        if let name = PageFurnitureText.byline(words) { return name }
        let name = words.joined(separator: " ")
        return name.isEmpty || words.count > 12 ? nil : name
    }

    /// The day of an ISO 8601 date or date and time ("2026-05-03", "2026-05-03T09:00:00Z"), or of a
    /// written date ("3 May 2026"); nil when it is neither.
    static func day(of text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = String(trimmed.prefix(10))
        if ListenerDate.isWellFormed(prefix) { return prefix }
        let lower = PageFurnitureText.words(trimmed).map { $0.lowercased() }
        return PageFurnitureText.dateLine(lower) ?? nil
    }

    private static let authorKeys: Set<String> = ["author", "article:author", "dc.creator"]
    private static let dayKeys: Set<String> = [
        "article:published_time", "datepublished", "date", "pubdate", "publish-date", "dc.date.issued", "dc.date",
    ]
}
