import Foundation
import NarrationCore
import NarrationText

/// A temporary folder for one test's files, removed when the test is done with it.
final class TextFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to a file called `name` and answers its path.
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Writes `text` as UTF-8.
    func write(_ name: String, _ text: String) throws -> String { try write(name, bytes: Array(text.utf8)) }

    /// Writes `text` and reads it back as a script.
    func read(_ name: String, _ text: String) throws -> [ScriptParagraph] {
        try ScriptReader.read(fileAt: write(name, text))
    }
}

/// Shorthands for expected paragraphs.
func heading(_ text: String) -> ScriptParagraph { ScriptParagraph(kind: .heading, text: text) }
func paragraph(_ text: String) -> ScriptParagraph { ScriptParagraph(kind: .paragraph, text: text) }

/// The error `body` throws, or nil.
func thrown(_ body: () throws(NarrationError) -> [ScriptParagraph]) -> NarrationError? {
    do { _ = try body(); return nil } catch { return error }
}
