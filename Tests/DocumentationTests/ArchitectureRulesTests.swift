import Foundation
import Testing

/// The architecture article's rules hold: Package.swift declares only the dependencies its target
/// graph draws, and every import in Sources/ keeps C, the network and system calls where the
/// article says they live.
@Suite("the architecture's rules hold for Package.swift and every import")
struct ArchitectureRulesTests {
    static func importsByTarget(_ package: PackageGraph) throws -> [String: [SourceImports.Import]] {
        var imports: [String: [SourceImports.Import]] = [:]
        for target in package.targets where target.type != "test" && target.type != "system" {
            imports[target.name] = try SourceImports.all(below: target.path)
        }
        return imports
    }

    @Test("the article draws every target, every C module has its one home, and nothing breaks a rule")
    func rulesHold() throws {
        let rules = try ArchitectureRules.load()
        let package = try PackageGraph.load()
        #expect(package.targets.count > 20, "Package.swift read: \(package.targets.count) targets")
        // The article's graph and table were read, not found empty.
        #expect(rules.graph["Narration"]?.contains("NarrationCore") == true)
        #expect(rules.homes["CALSA"]?.keys.sorted() == ["NarrationAudio"])
        let imports = try Self.importsByTarget(package)
        #expect(imports.values.map(\.count).reduce(0, +) > 300)
        let violations = rules.violations(targets: package.targets, imports: imports)
        #expect(violations.isEmpty, "the architecture article's rules are broken:\n\(violations.joined(separator: "\n"))")
    }

    @Test("the graph names no target Package.swift lacks")
    func graphHasNoStaleTargets() throws {
        let rules = try ArchitectureRules.load()
        let names = Set(try PackageGraph.load().targets.map(\.name))
        let stale = Set(rules.graph.keys).union(rules.graph.values.joined()).subtracting(names)
        #expect(stale.isEmpty, "the article's target graph names targets that do not exist: \(stale.sorted())")
    }

    @Test("a C module imported outside its home, a dependency against the graph and an import outside its file are each named")
    func rulesCatchMistakes() {
        let rules = ArchitectureRules(markdown: """
            ## The target graph
            ```text
            Engine → Core
            Core   → nothing
            ```
            ## Where C, network and system calls live
            | module | only in | why |
            |---|---|---|
            | `CALSA` | `Audio` | sound |
            | `Glibc` | `Engine` (only `Library/FileSystem.swift`) | system calls |
            | `Foundation` | every target | |
            """)
        let targets = [
            PackageGraph.Target(name: "Core", type: "regular", path: "Sources/Core", dependencies: ["Engine", "CALSA"]),
            PackageGraph.Target(name: "Engine", type: "regular", path: "Sources/Engine", dependencies: ["Core"]),
            PackageGraph.Target(name: "CALSA", type: "system", path: "Sources/CALSA", dependencies: []),
        ]
        let imports = [
            "Core": [SourceImports.Import(file: "Sources/Core/A.swift", line: 3, module: "CALSA")],
            "Engine": [
                SourceImports.Import(file: "Sources/Engine/Library/FileSystem.swift", line: 1, module: "Glibc"),
                SourceImports.Import(file: "Sources/Engine/Take/Take.swift", line: 2, module: "Glibc"),
                SourceImports.Import(file: "Sources/Engine/Take/Take.swift", line: 3, module: "Foundation"),
                SourceImports.Import(file: "Sources/Engine/Take/Take.swift", line: 4, module: "NIOCore"),
            ],
        ]
        #expect(rules.violations(targets: targets, imports: imports) == [
            "Package.swift: Core depends on Engine, which the target graph does not allow (Core → nothing)",
            "Package.swift: Core depends on CALSA, which only Audio may use",
            "Sources/Core/A.swift:3: Core imports CALSA, which only Audio may import",
            "Sources/Engine/Take/Take.swift:2: Glibc is imported in Engine only by Library/FileSystem.swift",
            "Sources/Engine/Take/Take.swift:4: Engine imports NIOCore, which the article's rules do not name",
        ])
    }

    @Test("import lines are read in every form Swift writes them")
    func importForms() throws {
        let line = { (text: String) -> String? in
            let match = SourceImports.pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
            return match.flatMap { Range($0.range(at: 1), in: text) }.map { String(text[$0]) }
        }
        #expect(line("import Foundation") == "Foundation")
        #expect(line("internal import CALSA") == "CALSA")
        #expect(line("@preconcurrency public import GRDB") == "GRDB")
        #expect(line("@_spi(Testing) @testable import Narration") == "Narration")
        #expect(line("import struct NIOCore.ByteBuffer") == "NIOCore")
        #expect(line("// import Glibc") == nil)
        #expect(line("let important = 1") == nil)
    }
}
