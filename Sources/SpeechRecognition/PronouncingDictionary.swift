import Glibc
import NarrationCore

/// The entries of a CMU-style pronouncing dictionary ("word PH O N E S", alternates as
/// "word(2) …") for a given set of words, so that the recogniser's dictionary holds only the
/// article's words.
struct PronouncingDictionary {
    /// The entry lines, alternates included, in the file's order.
    let lines: [String]
    /// The words asked for that have an entry.
    let known: Set<String>

    /// Reads the entries of `words` from `path`.
    /// - Throws: `speechRecognition` when the file cannot be opened (the model package is not
    ///   installed). The corresponding C functions are `fopen` and `getline`.
    init(path: String, words: Set<String>) throws(NarrationError) {
        guard let file = fopen(path, "r") else {
            throw NarrationError(
                .speechRecognition, "The speech recogniser's dictionary \(path) cannot be read.", subject: .file(path),
                cause: .system(errno: errno))
        }
        defer { fclose(file) }
        var lines: [String] = []
        var known: Set<String> = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0, let line = buffer {
            // The headword ends at the first space or at "(" of an alternate.
            var end = 0
            while line[end] != 0, line[end] != 32, line[end] != 40, line[end] != 9 { end += 1 }
            let headword = String(decoding: UnsafeRawBufferPointer(start: line, count: end), as: UTF8.self)
            guard words.contains(headword) else { continue }
            var entry = String(cString: line)
            while entry.last == "\n" || entry.last == "\r" { entry.removeLast() }
            lines.append(entry)
            known.insert(headword)
        }
        self.lines = lines
        self.known = known
    }
}
