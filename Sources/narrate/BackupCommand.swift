import ArgumentParser
import Foundation
import Narration
import NarrationCore

extension Narrate {
    /// `narrate backup DIR`: a consistent copy of the catalog and every recording.
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Back up the catalog and every recording into a new dated folder inside DIR.",
            discussion: """
                Safe while narrate runs, a take being recorded included: the catalog is copied \
                with SQLite's online backup, so the copy is one moment's catalog, and a take not \
                yet finished is not in it (the recorder is never held up). Then every chunk the \
                copy lists, each checked against the catalog, the articles' trash (for undo) and \
                the outbox's exports (checked against their SHA-256), and last a manifest.json \
                with every file's size and SHA-256. config.toml is not copied. A missing or \
                damaged chunk stops the backup, naming it, and nothing of it is left.

                  narrate backup /mnt/usb/narrate-backups
                  narrate restore /mnt/usb/narrate-backups/narrate-backup-2026-11-26-120000 --into /srv/narrate
                """)

        @Argument(help: ArgumentHelp("The folder to keep backups in (made if its parent exists).", valueName: "DIR"))
        var folder: String

        @OptionGroup var output: JSONOption

        func validate() throws {
            if folder.isEmpty { throw ValidationError("The backup folder is empty: give a folder such as /mnt/usb/narrate-backups.") }
            if folder.contains("\0") { throw ValidationError("The backup folder's name holds a NUL character.") }
        }

        func run() throws {
            let destination = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
            let bar = ProgressBar(label: "Backing up", stage: "backup")
            let summary = try CommandRunner.withLibrary(readOnly: true) { (library) throws(NarrationError) in
                try library.backup(into: destination) { done, total in bar.update(done: done, total: total) }
            }
            bar.finish()
            if output.json {
                Console.printJSON(BackupJSON(
                    folder: summary.folder.path, files: summary.files, bytes: summary.bytes, articles: summary.articles,
                    chunks: summary.chunks, seconds: summary.seconds))
                return
            }
            Console.print(
                "Backed up \(Counted.phrase(summary.chunks, "chunk")) of \(Counted.phrase(summary.articles, "article")) (\(Counted.phrase(summary.files, "file")), \(Prune.mebibytes(summary.bytes))) in \(String(format: "%.1f", summary.seconds)) s to \(summary.folder.path).")
        }
    }

    /// `narrate backup --json`.
    struct BackupJSON: Encodable {
        let folder: String
        let files: Int
        let bytes: Int
        let articles: Int
        let chunks: Int
        let seconds: Double
    }
}
