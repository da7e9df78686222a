import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate migrate`: this computer's catalog into the PostgreSQL catalog a reading service's
    /// hosts share.
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy this library's catalog into the PostgreSQL catalog a reading service's hosts share.",
            discussion: """
                Copies every table of the library's catalog.sqlite (in NARRATE_HOME) into the \
                PostgreSQL catalog that --to names, else config.toml's [service] catalog, then \
                reads both back and compares every row, and checks each chunk's file against its \
                row. With a recordings store in config.toml's [service] recordings, it then \
                copies every chunk there (those in the trash too), each checked, and records the \
                copies in the shared catalog; the recordings also stay in the library's folder. \
                Stopped partway (killed, the server gone), run it again: it goes on where it \
                stopped, and verifies everything. \
                A catalog that holds another library's records is refused, naming the tables.

                Run it while nothing records into the library; afterwards the hosts open the \
                shared catalog through [service] catalog.

                  narrate migrate --to postgresql://narrate@db.example.org:5432/narrate
                  NARRATE_CATALOG_PASSWORD=… narrate migrate --json
                """)

        @Option(name: .customLong("to"), help: ArgumentHelp(
            "The PostgreSQL catalog, postgresql://USER@HOST:PORT/DATABASE (no password in it); config.toml's [service] catalog if not given.",
            valueName: "ADDRESS"))
        var address: String?

        @Option(name: .customLong("batch-rows"), help: ArgumentHelp("Rows copied in each transaction, 1 to 10000.", valueName: "N"))
        var batchRows = 500

        @OptionGroup var progress: ProgressOption
        @OptionGroup var output: JSONOption

        func validate() throws {
            guard (1...10_000).contains(batchRows) else {
                throw ValidationError("--batch-rows \(batchRows) is out of range: give 1 to 10000 rows per transaction.")
            }
            if let address, address.contains("\0") { throw ValidationError("The catalog address holds a NUL character.") }
        }

        func run() async throws {
            let settings = try CommandRunner.settings()
            do throws(NarrationError) {
                guard let address = address ?? settings.serviceCatalog else {
                    throw NarrationError.usage(
                        "Name the PostgreSQL catalog to migrate into: --to postgresql://USER@HOST:PORT/DATABASE, or catalog in the [service] table of config.toml.")
                }
                let root = try DataRoot.fromEnvironment()
                guard FileManager.default.fileExists(atPath: root.catalogURL.path) else {
                    throw NarrationError.usage("The library \(root.url.path) has no catalog yet, so there is nothing to migrate: set NARRATE_HOME to the library's folder.")
                }
                // This computer's own catalog, whatever [service] catalog says.
                let library = try NarrationLibrary(root: root)
                for notice in library.notices { Console.error(notice) }
                let target = try SharedCatalog.open(address: address, passwordFile: settings.serviceCatalogPasswordFile)
                let mode = progress.progress
                let report = try library.migrateCatalog(into: target, batchRows: batchRows) { step in
                    Self.show(step, mode: mode)
                }
                if mode == .bar || (mode == .auto && isatty(2) == 1) { Console.status("\r\u{1B}[K") }
                let copies = try await Self.copyChunks(root: root, into: target, settings: settings)
                let rows = report.tables.reduce(0) { $0 + $1.rows }
                let written = report.tables.reduce(0) { $0 + $1.written }
                if output.json {
                    Console.printJSON(MigrateJSON(
                        catalog: target.path, tables: report.tables, rows: rows, written: written, chunksVerified: report.chunksVerified,
                        chunkProblems: report.chunkProblems, recordings: copies?.store, chunksCopied: copies?.copied.count,
                        chunksCopiedBefore: copies?.already))
                    return
                }
                Console.print(
                    "Copied the catalog of \(root.url.path) into \(target.path): \(Counted.phrase(report.tables.count, "table")), \(Counted.phrase(rows, "row")) (\(written) written now), every row verified; \(Counted.phrase(report.chunksVerified, "chunk")) checked against their files.")
                for problem in report.chunkProblems {
                    Console.print("Chunk \(problem) in this library's folder (copied all the same; narrate chunks shows it too).")
                }
                if let copies {
                    Console.print(
                        "Copied \(Counted.phrase(copies.copied.count, "chunk")) to \(copies.store), each checked; \(Counted.phrase(copies.already, "chunk")) had been copied before. The recordings also stay in \(root.url.path).")
                } else {
                    Console.print("The recordings stay in \(root.url.path). Hosts open the shared catalog through catalog in the [service] table of config.toml.")
                }
            } catch {
                Console.error(error.sentence)
                throw ExitCode(error.exitStatus)
            }
        }

        /// Every chunk of the library at `root` (in the trash too) copied to `[service] recordings`,
        /// each checked, its copy recorded in `target`; nil when no recordings store is set.
        static func copyChunks(
            root: DataRoot, into target: Catalog, settings: Settings
        ) async throws(NarrationError) -> (store: String, copied: [ChunkCopy], already: Int)? {
            guard let destination = settings.serviceRecordings else { return nil }
            let shared = try NarrationLibrary(root: root, catalog: target)
            let (store, round) = try await CommandRunner.copyChunks(of: shared, to: destination, includingTrash: true)
            return (store, round.copied, try shared.chunkCopyCount() - round.copied.count)
        }

        /// A batch copied, as the progress mode shows it.
        static func show(_ step: CatalogCopyProgress, mode: ProgressMode) {
            switch mode {
            case .json:
                Console.printJSONLine(ProgressJSON(table: step.table, tableNumber: step.tableNumber, tables: step.tables, rows: step.rows, of: step.ofRows))
            case .bar:
                Console.status("\r\u{1B}[KCopying table \(step.tableNumber) of \(step.tables), \(step.table): \(step.rows) of \(step.ofRows) rows")
            case .auto:
                if isatty(2) == 1 { show(step, mode: .bar) }
            case .none:
                break
            }
        }
    }

    /// `narrate migrate --progress json`, one line per batch.
    struct ProgressJSON: Encodable {
        var event = "progress"
        var stage = "migrate"
        let table: String
        let tableNumber: Int
        let tables: Int
        let rows: Int
        let of: Int
    }

    /// `narrate migrate --json`.
    struct MigrateJSON: Encodable {
        let catalog: String
        let tables: [CatalogTableCopy]
        let rows: Int
        let written: Int
        let chunksVerified: Int
        let chunkProblems: [String]
        /// The recordings store chunks were copied to, with how many now and before; nil without one.
        let recordings: String?
        let chunksCopied: Int?
        let chunksCopiedBefore: Int?
    }
}
