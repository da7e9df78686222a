import Foundation

/// The rules the architecture article states, read from the article itself so that the article
/// and the test cannot disagree:
/// - the target graph, a `text` block of lines `Target → Dependency, Dependency` (`→ nothing`
///   for none) under the heading "The target graph";
/// - where outside code lives, a table under "Where C, network and system calls live" whose rows
///   are `` | `Module`, `Module` | `Target`, `Target` (only `File.swift`, `Folder/`) | why | ``:
///   the only targets that may import those modules, and within a target the only files or
///   folders; "every target" for modules any target may import.
struct ArchitectureRules {
    /// Each of our targets and the targets it may depend on and import.
    var graph: [String: Set<String>] = [:]
    /// Each outside module and the targets that may import it; a target mapped to a non-empty
    /// set may import it only in those files or folders (relative to the target's folder).
    var homes: [String: [String: Set<String>]] = [:]
    /// Modules any target may import.
    var everywhere: Set<String> = []

    static let article = "Sources/Narration/Narration.docc/Architecture.md"

    static func load() throws -> ArchitectureRules {
        try ArchitectureRules(markdown: RepositoryRoot.text(of: article))
    }

    init(markdown: String) {
        var section = ""
        var inBlock = false
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("## ") { section = String(line.dropFirst(3)); continue }
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            if section == "The target graph", inBlock, let arrow = line.range(of: "→") {
                let target = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
                let rest = line[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
                let dependencies = rest == "nothing" ? [] : rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                graph[target, default: []].formUnion(dependencies)
            }
            if section == "Where C, network and system calls live", !inBlock, line.hasPrefix("|"), !line.hasPrefix("|---") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map(String.init)
                guard cells.count >= 2 else { continue }
                let modules = Self.names(in: cells[0])
                if cells[1].contains("every target") {
                    everywhere.formUnion(modules)
                    continue
                }
                var places: [String: Set<String>] = [:]
                for (target, files) in Self.targets(in: cells[1]) { places[target, default: []].formUnion(files) }
                for module in modules { homes[module, default: [:]].merge(places) { $0.union($1) } }
            }
        }
    }

    /// The identifiers in backticks in a table cell: `` `CALSA`, `CSndFile` ``.
    static func names(in cell: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "`([A-Za-z_][A-Za-z0-9_]*)`")
        return pattern.matches(in: cell, range: NSRange(cell.startIndex..., in: cell)).compactMap {
            Range($0.range(at: 1), in: cell).map { String(cell[$0]) }
        }
    }

    /// The targets of a table cell, each with the files it is limited to:
    /// `` `Narration` (only `Library/FileSystem.swift`), `narrate` ``.
    static func targets(in cell: String) -> [(String, Set<String>)] {
        let pattern = try! NSRegularExpression(pattern: #"`([A-Za-z_][A-Za-z0-9_]*)`(?:\s*\(only ([^)]*)\))?"#)
        return pattern.matches(in: cell, range: NSRange(cell.startIndex..., in: cell)).compactMap { match in
            guard let name = Range(match.range(at: 1), in: cell) else { return nil }
            var files: Set<String> = []
            if let list = Range(match.range(at: 2), in: cell) {
                let text = String(cell[list])
                let filePattern = try! NSRegularExpression(pattern: "`([^`]+)`")
                for file in filePattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(file.range(at: 1), in: text) { files.insert(String(text[range])) }
                }
            }
            return (String(cell[name]), files)
        }
    }

    /// What breaks the rules in a package whose targets are `targets` and whose sources import
    /// `imports` (by target), each as a sentence naming the place.
    func violations(targets: [PackageGraph.Target], imports: [String: [SourceImports.Import]]) -> [String] {
        var found: [String] = []
        let ours = targets.filter { $0.type != "test" && $0.type != "system" }
        let cModules = Set(targets.filter { $0.type == "system" }.map(\.name))
        for module in cModules.sorted() where homes[module] == nil {
            found.append("Package.swift: the C module \(module) has no row in the article's table of where C lives")
        }
        for target in ours {
            guard let allowed = graph[target.name] else {
                found.append("Package.swift: the target \(target.name) is not in the article's target graph")
                continue
            }
            for dependency in target.dependencies {
                if graph[dependency] != nil {
                    if !allowed.contains(dependency) {
                        found.append("Package.swift: \(target.name) depends on \(dependency), which the target graph does not allow (\(target.name) → \(allowed.isEmpty ? "nothing" : allowed.sorted().joined(separator: ", ")))")
                    }
                } else if let places = homes[dependency] {
                    if places[target.name] == nil {
                        found.append("Package.swift: \(target.name) depends on \(dependency), which only \(places.keys.sorted().joined(separator: ", ")) may use")
                    }
                } else {
                    found.append("Package.swift: \(target.name) depends on \(dependency), which the article's rules do not name")
                }
            }
            for item in imports[target.name] ?? [] {
                let place = "\(item.file):\(item.line)"
                if item.module == target.name || everywhere.contains(item.module) { continue }
                if graph[item.module] != nil {
                    if !allowed.contains(item.module) {
                        found.append("\(place): \(target.name) imports \(item.module), which the target graph does not allow")
                    }
                } else if let places = homes[item.module] {
                    guard let files = places[target.name] else {
                        let owners = places.keys.sorted()
                        found.append("\(place): \(target.name) imports \(item.module), which \(owners.isEmpty ? "no target" : "only " + owners.joined(separator: ", ")) may import")
                        continue
                    }
                    let relative = String(item.file.dropFirst(target.path.count + 1))
                    if !files.isEmpty, !files.contains(where: { $0.hasSuffix("/") ? relative.hasPrefix($0) : relative == $0 }) {
                        found.append("\(place): \(item.module) is imported in \(target.name) only by \(files.sorted().joined(separator: ", "))")
                    }
                } else {
                    found.append("\(place): \(target.name) imports \(item.module), which the article's rules do not name")
                }
            }
        }
        return found
    }
}
