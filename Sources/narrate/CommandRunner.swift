import ArgumentParser
import Foundation
import Narration
import NarrationCore
import NarrationTerminal

/// How every command meets the engine: open the library (printing what recovery did), run, and
/// turn a `NarrationError` into one sentence on stderr and a non-zero exit.
enum CommandRunner {
    /// The settings in config.toml; a broken file is one line on stderr and exit status 64.
    static func settings() throws -> Settings {
        do {
            return try Settings.load()
        } catch {
            Console.error(error.sentence)
            throw ExitCode(error.exitStatus)
        }
    }

    /// Runs `body` with the library; errors become a line on stderr and exit status 1 (64 for usage).
    /// - Parameter readOnly: the command only reads (list, chunks, play, export, check), so a data
    ///   folder that cannot be written is opened read-only, with one line on stderr saying so.
    static func withLibrary<T>(readOnly: Bool = false, _ body: (NarrationLibrary) throws(NarrationError) -> T) throws -> T {
        do {
            return try body(try openLibrary(readOnly: readOnly))
        } catch {
            Console.error(error.sentence)
            throw ExitCode(error.exitStatus)
        }
    }

    /// `withLibrary` for work that waits on the network.
    static func withLibrary<T>(readOnly: Bool = false, _ body: (NarrationLibrary) async throws(NarrationError) -> T) async throws -> T {
        do {
            return try await body(try openLibrary(readOnly: readOnly))
        } catch {
            Console.error(error.sentence)
            throw ExitCode(error.exitStatus)
        }
    }

    /// Copies the chunks this host holds that have no copy in the reading service's recordings
    /// store yet (`[service] recordings`), each checked; nothing without a store or a shared catalog.
    static func copyToRecordings(_ library: NarrationLibrary) async throws(NarrationError) {
        guard library.catalogKind == "postgresql", let destination = try Settings.load().serviceRecordings else { return }
        _ = try await copyChunks(of: library, to: destination, includingTrash: false)
    }

    /// On a host of a reading service (a shared catalog and `[service] recordings`), brings home
    /// from the recordings store the chunks of the article `id` names (the current one for nil)
    /// that this host lacks, another host having recorded them or this host's copies having been
    /// thrown away, before a command reads the article's audio. Nothing elsewhere.
    static func bringChunksHome(of id: String?) async throws {
        guard try settings().serviceRecordings != nil else { return }  // a personal library: not opened twice
        try await withLibrary { (library) async throws(NarrationError) in
            try await withRecordings(library) { (store) async throws(NarrationError) in
                guard let store else { return }
                _ = try await library.bringChunksHome(of: try library.article(id).id, from: store)
            }
        }
    }

    /// Runs `body` with the reading service's recordings store (nil on a personal library: no
    /// shared catalog or no `[service] recordings`), and lets go of the store's connection after.
    static func withRecordings<T>(_ library: NarrationLibrary, _ body: (RecordingStore?) async throws(NarrationError) -> T) async throws(NarrationError) -> T {
        guard library.catalogKind == "postgresql", let destination = try Settings.load().serviceRecordings else { return try await body(nil) }
        return try await withRecordings(destination) { (store) async throws(NarrationError) in try await body(store) }
    }

    private static func withRecordings<T>(_ destination: Destination, _ body: (RecordingStore) async throws(NarrationError) -> T) async throws(NarrationError) -> T {
        let store = RecordingStore(try NarrationLibrary.store(for: destination))
        let result: Result<T, NarrationError>
        do throws(NarrationError) {
            result = .success(try await body(store))
        } catch {
            result = .failure(error)
        }
        await store.close()
        return try result.get()
    }

    /// Copies `library`'s chunks that have no copy yet to the recordings store at `destination`,
    /// each checked, and lets go of the store's connection whatever happened.
    /// - Returns: the store's name and what was copied.
    static func copyChunks(
        of library: NarrationLibrary, to destination: Destination, includingTrash: Bool
    ) async throws(NarrationError) -> (store: String, round: ChunkCopyRound) {
        try await withRecordings(destination) { (store) async throws(NarrationError) in
            (store.name, try await library.copyChunks(to: store, includingTrash: includingTrash))
        }
    }

    private static func openLibrary(readOnly: Bool) throws(NarrationError) -> NarrationLibrary {
        let root = try DataRoot.fromEnvironment()
        let library: NarrationLibrary
        // A config.toml that names a catalog opens it even when another of its settings is wrong;
        // one that cannot be read as TOML stops here: a service's host must never fall back to a
        // catalog of its own because of a typo.
        if let shared = try Settings.sharedCatalog() {
            // A reading service whose hosts share the catalog: the recordings stay in the data folder.
            library = try NarrationLibrary(root: root, catalog: SharedCatalog.open(address: shared.address, passwordFile: shared.passwordFile))
        } else {
            library = try NarrationLibrary(root: root, allowingReadOnly: readOnly)
        }
        for notice in library.notices { Console.error(notice) }
        return library
    }
}

/// Writing to the terminal: results on stdout, everything else on stderr.
///
/// Lines carry text from volunteers and files (titles, paths, a server's words), so every control
/// character in them is shown as `\u{1B}` and the like (`TerminalText`) instead of reaching the
/// terminal: only the newline that ends a line (or separates the lines of one message) passes, and
/// in `status` the carriage return that starts a redrawn line, `ESC[K` and the colour sequences
/// the live displays draw with. JSON is escaped by its encoder.
enum Console {
    /// A number as the volunteer typed it: "-1", "0.25", "1e+06", never "-1.0".
    static func number(_ value: Double) -> String { String(format: "%g", value) }

    /// `value` right-aligned in a column `width` characters wide, for listings.
    static func rightAligned(_ value: some CustomStringConvertible, _ width: Int) -> String {
        let text = value.description
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    static func error(_ line: String) {
        write(Data((TerminalText.escaped(line, keeping: ["\n"]) + "\n").utf8), to: .standardError)
    }

    /// Writes, and drops what cannot be written: a closed pipe (whoever read the output has gone)
    /// must not stop narrate, which may be keeping a take.
    private static func write(_ data: Data, to handle: FileHandle) {
        try? handle.write(contentsOf: data)
    }

    /// Text for a status line that redraws itself: a leading `\r`, a trailing `\n`, `ESC[K` and
    /// colours pass, other controls are escaped (`TerminalText.escapedStatus`).
    static func status(_ text: String) {
        write(Data(TerminalText.escapedStatus(text).utf8), to: .standardError)
    }

    static func print(_ line: String) {
        write(Data((TerminalText.escaped(line, keeping: ["\n"]) + "\n").utf8), to: .standardOutput)
    }

    /// Encodes `value` as pretty, key-sorted JSON on stdout.
    static func printJSON<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        write(data + Data("\n".utf8), to: .standardOutput)
    }

    /// One compact JSON object per line on stderr (live progress for scripts).
    static func printJSONLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(value) {
            write(data + Data("\n".utf8), to: .standardError)
        }
    }
}
