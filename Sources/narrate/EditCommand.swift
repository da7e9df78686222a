import ArgumentParser
import Narration
import NarrationCore

extension Narrate {
    /// `narrate edit`: the article's title, publication, narrator and listener date.
    struct EditDetails: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change the article's title, publication, narrator, or the date listeners see.",
            discussion: """
                The date is the one in the file's tags and the sidecar; without one it is the day \
                the first chunk was recorded (not the day it is exported). narrate undo takes the \
                change back.

                  narrate edit --title "Council passes the budget"
                  narrate edit --narrator "Ann Lee" --date 2026-11-20
                """)

        @Option(help: ArgumentHelp("The new title.", valueName: "TITLE"))
        var title: String?

        @Option(help: ArgumentHelp("The newspaper or magazine.", valueName: "NAME"))
        var publication: String?

        @Option(help: ArgumentHelp("Who reads it.", valueName: "NAME"))
        var narrator: String?

        @Option(help: ArgumentHelp("The date listeners see, YYYY-MM-DD.", valueName: "DATE"))
        var date: String?

        @OptionGroup var target: ArticleOption
        @OptionGroup var output: JSONOption

        func validate() throws {
            if title == nil, publication == nil, narrator == nil, date == nil {
                throw ValidationError("Say what to change: --title, --publication, --narrator or --date.")
            }
        }

        func run() throws {
            let result = try CommandRunner.withLibrary { library throws(NarrationError) in
                let article = try library.article(target.article)
                return try library.changeDetails(
                    of: article, DetailsChange(title: title, publication: publication, narrator: narrator, date: date))
            }
            let article = result.article
            if output.json {
                Console.printJSON(EditedJSON(
                    article: article.id.rawValue, title: article.title, publication: article.publication, narrator: article.narrator,
                    date: article.date, changed: result.changed, withdrawnExport: result.withdrawn.map { "\($0)" }))
                return
            }
            guard !result.changed.isEmpty else {
                Console.print("Nothing changed: \"\(article.title)\" already has those details.")
                return
            }
            Console.print("\"\(article.title)\" · \(article.publication.isEmpty ? "no publication" : article.publication) · read by \(article.narrator.isEmpty ? "nobody named" : article.narrator) · dated \(article.date ?? "the day it was recorded")")
            if let withdrawn = result.withdrawn { Console.error(WithdrawnExport.sentence(withdrawn, title: article.title)) }
        }
    }
}

/// What `edit --json` prints.
private struct EditedJSON: Encodable {
    let article: String
    let title: String
    let publication: String
    let narrator: String
    /// `YYYY-MM-DD`; nil means the day the first chunk was recorded.
    let date: String?
    /// "title", "publication", "narrator", "date": what this edit changed.
    let changed: [String]
    let withdrawnExport: String?
}
