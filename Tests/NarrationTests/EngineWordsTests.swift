import Foundation
import Testing

/// The engine says what happened and gives a remedy as a value; only the front ends (the command
/// line, the terminal studio, the web page) name commands, flags, keys or buttons. These tests
/// read the engine's sources and fail on a string literal that names a flag or a command.
@Suite("The engine's strings name no command or flag")
struct EngineWordsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The targets below the front ends: their words reach the web page as well as the terminal.
    static let engineTargets = ["Narration", "NarrationCore", "NarrationAudio", "NarrationText", "ObjectStorage", "SpeechRecognition", "Studio"]

    /// Literals that hold "narrate" and a command's name as a name, not as something to run:
    /// the demo article's publication, and the body of the file the destination check writes
    /// and removes at once.
    static let names: Set<String> = [
        "Narration/Demo/Demo.swift: narrate demo",
        "Narration/Doctor/DeliveryCheck.swift: narrate doctor checks that this destination can be written; this file is removed at once.\\n",
    ]

    /// The subcommands as the `Narrate` command's configuration lists them, each by the name it
    /// is typed with (its `commandName`, else its type's name in kebab case, as ArgumentParser
    /// derives it).
    static func subcommandNames() throws -> [String] {
        let folder = sources.appendingPathComponent("narrate")
        let top = try String(contentsOf: folder.appendingPathComponent("Narrate.swift"), encoding: .utf8)
        let list = try #require(top.firstMatch(of: /subcommands: \[([^\]]*)\]/)).1
        let types = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ".self", with: "") }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { try String(contentsOf: $0, encoding: .utf8) }
        return try types.map { type in
            let declaration = try #require(
                files.lazy.compactMap { text in text.firstRange(of: "struct \(type): ").map { text[$0.lowerBound...] } }.first, "no struct \(type) in Sources/narrate")
            let configuration = declaration.prefix(400)
            if let named = configuration.firstMatch(of: /commandName: "([a-z-]+)"/) { return String(named.1) }
            return type.replacing(/([a-z])([A-Z])/) { "\($0.1)-\($0.2)" }.lowercased()
        }
    }

    /// Every piece of every string literal in `target`, with its file (relative to Sources) and line.
    static func literals(in target: String) throws -> [(file: String, piece: SwiftStringLiterals.Piece)] {
        let folder = sources.appendingPathComponent(target)
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
        return try files.flatMap { file in
            let relative = String(file.path.dropFirst(sources.path.count + 1))
            return SwiftStringLiterals(source: try String(contentsOf: file, encoding: .utf8)).pieces.map { (relative, $0) }
        }
    }

    /// What in `piece` names a flag or a subcommand, each with the line of the file it is on.
    static func commandWords(in piece: SwiftStringLiterals.Piece, subcommands: [String]) -> [(line: Int, words: String)] {
        piece.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { offset, text in
            commandWords(in: String(text), subcommands: subcommands).map { (piece.line + offset, $0) }
        }
    }

    /// What in `text` names a flag (`--word`) or a subcommand (`narrate word`).
    static func commandWords(in text: String, subcommands: [String]) -> [String] {
        let flags = text.matches(of: /(?:^|[^\w-])(--[a-z][a-z0-9-]*)/).map { String($0.output.1) }
        let commands = text.matches(of: /\bnarrate ([a-z][a-z-]*)(?![\w-])/)
            .filter { subcommands.contains(String($0.output.1)) }
            .map { String($0.output.0) }
        return flags + commands
    }

    @Test("the subcommands' names come from the command's configuration")
    func subcommandsAreRead() throws {
        let names = try Self.subcommandNames()
        #expect(names.count >= 25)
        for name in ["new", "record", "delete-chunk", "move-chunk", "delete-article", "edit", "history", "outbox", "prune", "chunks"] {
            #expect(names.contains(name), "\(name) is not among \(names)")
        }
    }

    @Test("a literal naming a flag or a subcommand is found; comments, plain words and other programs are not")
    func scanFindsCommandWords() throws {
        let subcommands = try Self.subcommandNames()
        let source = #"""
            /// Run narrate record --insert to add one.
            // narrate history lists them
            let a = "deliver it first (narrate outbox push), or use --force"
            let b = "another narrate command is writing; narrate uses its defaults; chmod 600 \(path)"
            let c = "Chunk \(index.number) is \(length) long; give --start \("and") within it."
            let d = """
                multi-line: narrate prune removes them
                """
            let e = #"raw: --date "x""#
            """#
        let found = SwiftStringLiterals(source: source).pieces.flatMap { piece in
            Self.commandWords(in: piece, subcommands: subcommands).map { "\($0.line): \($0.words)" }
        }
        #expect(found == ["3: --force", "3: narrate outbox", "5: --start", "7: narrate prune", "9: --date"])
    }

    @Test("no engine string literal names a command-line flag or a narrate subcommand")
    func engineNamesNoCommand() throws {
        let subcommands = try Self.subcommandNames()
        var offending: [String] = []
        var scanned = 0
        for target in Self.engineTargets {
            for (file, piece) in try Self.literals(in: target) {
                scanned += 1
                guard !Self.names.contains("\(file): \(piece.text)") else { continue }
                for (line, words) in Self.commandWords(in: piece, subcommands: subcommands) {
                    offending.append("Sources/\(file):\(line): \(words) in \"\(piece.text)\"")
                }
            }
        }
        print("figure: \(scanned) string literal pieces scanned in \(Self.engineTargets.count) engine targets, \(offending.count) name a command or flag")
        #expect(scanned > 1_000)
        #expect(offending.isEmpty, "\(offending.count) engine strings name a command or flag:\n\(offending.joined(separator: "\n"))")
    }
}
