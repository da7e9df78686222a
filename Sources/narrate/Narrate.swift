import ArgumentParser

/// `narrate`: record articles chunk by chunk, review them, and deliver one tagged file each.
@main
struct Narrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "narrate",
        abstract: "Narrate newspaper and magazine articles for blind and print-impaired listeners.",
        discussion: """
            New here? `narrate demo` shows the whole pipeline in a few seconds, no sound card needed.

            Start an article, then record it paragraph by paragraph: each record/stop adds one \
            chunk. Listen back, delete or re-record a chunk, and go on.

              narrate new "City council votes on budget" --publication "Daily Post"
              narrate record            # Enter or q stops; each stop adds a chunk
              narrate chunks            # what you have so far
              narrate record --replace 2
              narrate play --from 3     # listen back, gaplessly
              narrate queue             # done: one tagged file into the outbox
              narrate outbox push --to s3://radio-archive/narrations --endpoint https://s3.example.org

            Recordings live under $NARRATE_HOME (default ~/.local/share/narrate). Nothing you \
            record is lost on a crash: the next command adopts an interrupted take.
            """,
        version: "0.1.0",
        subcommands: [New.self, List.self, Script.self, Record.self, Import.self, Chunks.self, DeleteChunk.self, MoveChunk.self, Trim.self, Cuts.self, Undo.self, History.self, Hours.self, EditDetails.self, DeleteArticle.self, Play.self, Export.self, Check.self, Queue.self, Submit.self, Outbox.self, Feed.self, Prune.self, Devices.self, Config.self, Doctor.self, Studio.self, Serve.self, Accounts.self, Audit.self, Desk.self, Review.self, Backup.self, Restore.self, Migrate.self, Demo.self]
    )
}
