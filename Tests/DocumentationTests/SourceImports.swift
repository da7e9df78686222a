import Foundation

/// The modules a Swift file imports, read from its `import` lines (any access level, attributes
/// such as `@preconcurrency` or `@testable`, and `import struct M.T` forms), with each line's
/// number; lines inside multi-line string literals are left out.
enum SourceImports {
    struct Import {
        /// Relative to the root.
        let file: String
        let line: Int
        let module: String
    }

    static let pattern = try! NSRegularExpression(
        pattern: #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#)

    /// Every import of every .swift file below `folder` (relative to the root).
    static func all(below folder: String) throws -> [Import] {
        let base = RepositoryRoot.url.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [Import] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
            // Lines inside a multi-line string literal (a Python script a fixture runs) are text.
            var inString = false
            for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                let wasInString = inString
                if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
                guard !wasInString else { continue }
                guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                    let range = Range(match.range(at: 1), in: line)
                else { continue }
                found.append(Import(file: "\(folder)/\(relative)", line: offset + 1, module: String(line[range])))
            }
        }
        return found.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }
}
