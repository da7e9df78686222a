import ArgumentParser
import Foundation
import Narration
import NarrationCore
import NarrationTerminal

extension Narrate {
    /// `narrate restore BACKUP`: a backup brought back into an empty data folder.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Restore a backup into an empty data folder.",
            discussion: """
                BACKUP is the dated folder "narrate backup" made. The data folder (NARRATE_HOME, \
                or --into) must be empty or not exist yet: a restore never mixes two libraries. \
                Every file is checked against the backup's manifest (size and SHA-256) and the \
                catalog against SQLite's integrity check before the folder takes the data \
                folder's name; a restore that fails leaves nothing behind.

                  narrate restore /mnt/usb/narrate-backups/narrate-backup-2026-11-26-120000
                  narrate restore /mnt/usb/narrate-backups/narrate-backup-2026-11-26-120000 --into /srv/narrate --json
                """)

        @Argument(help: ArgumentHelp("The backup's dated folder (it holds manifest.json).", valueName: "BACKUP"))
        var backup: String

        @Option(help: ArgumentHelp("The data folder to restore into, instead of the one NARRATE_HOME names.", valueName: "FOLDER"))
        var into: String?

        @OptionGroup var output: JSONOption

        func validate() throws {
            if backup.isEmpty { throw ValidationError("The backup folder is empty: give the dated folder \"narrate backup\" made.") }
            if let into, into.isEmpty { throw ValidationError("--into is empty: give the data folder to restore into.") }
            if backup.contains("\0") || into?.contains("\0") == true { throw ValidationError("A folder's name holds a NUL character.") }
        }

        func run() throws {
            let source = URL(fileURLWithPath: backup, isDirectory: true).standardizedFileURL
            let bar = ProgressBar(label: "Restoring", stage: "restore")
            let summary: RestoreSummary
            do throws(NarrationError) {
                let root: DataRoot
                if let into {
                    root = DataRoot(url: URL(fileURLWithPath: into, isDirectory: true).standardizedFileURL)
                } else {
                    root = try DataRoot.fromEnvironment()
                }
                summary = try LibraryRestore.restore(from: source, into: root) { done, total in bar.update(done: done, total: total) }
            } catch {
                bar.finish()
                Console.error(error.sentence)
                throw ExitCode(error.exitStatus)
            }
            bar.finish()
            if output.json {
                Console.printJSON(RestoreJSON(
                    dataFolder: summary.root.path, files: summary.files, bytes: summary.bytes, articles: summary.articles,
                    chunks: summary.chunks, seconds: summary.seconds))
                return
            }
            Console.print(
                "Restored \(Counted.phrase(summary.chunks, "chunk")) of \(Counted.phrase(summary.articles, "article")) (\(Counted.phrase(summary.files, "file")), \(Prune.mebibytes(summary.bytes))) into \(summary.root.path) in \(String(format: "%.1f", summary.seconds)) s; every file matched the manifest and the catalog's integrity check is clean.")
        }
    }

    /// `narrate restore --json`.
    struct RestoreJSON: Encodable {
        let dataFolder: String
        let files: Int
        let bytes: Int
        let articles: Int
        let chunks: Int
        let seconds: Double
    }
}
