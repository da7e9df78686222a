import Foundation

/// The package's own folder (where Package.swift is), found from this file's place in it, and the
/// documents the docs tests read.
enum RepositoryRoot {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every article of the DocC catalog, as paths relative to the root.
    static func documents() throws -> [String] {
        let catalog = "Sources/Narration/Narration.docc"
        let articles = try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(catalog).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        return ["README.md"] + articles
    }

    static func text(of path: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)
    }
}
