import ArgumentParser
import Narration
import NarrationCore
import NarrationText

extension Narrate {
    /// `narrate new TITLE`: starts an article and makes it the current one.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a new article; it becomes the current article.",
            discussion: """
                The recording format is fixed for the article's life. The default, 44100 Hz mono \
                16-bit, suits speech and every delivery profile.

                  narrate new "Budget vote delayed" --publication "Daily Post" --narrator "Ann Lee"
                  narrate new "Budget vote delayed" --text budget.html    # with its text (see narrate script)
                """)

        @Argument(help: "The article's title, as it will appear in the delivered file's tags.")
        var title: String

        @Option(help: "The newspaper or magazine the article comes from (default: publication in config.toml).")
        var publication: String?

        @Option(help: "Your name, as the narrator credited in the tags (default: narrator in config.toml).")
        var narrator: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Sample rate: 16000, 22050, 44100 or 48000.", valueName: "HZ"))
        var rate = AudioFormat.speech.sampleRate

        @Option(parsing: .unconditional, help: "Channels: 1 (mono) or 2 (stereo).")
        var channels = AudioFormat.speech.channels

        @Option(parsing: .unconditional, help: "Bits per sample: 16 or 24.")
        var bits = AudioFormat.speech.bitsPerSample

        @Option(help: ArgumentHelp("The article's text to read from: .txt, .md, .html, .docx, .odt or .pdf (see \"narrate script\").", valueName: "FILE"))
        var text: String?

        @OptionGroup var output: JSONOption

        func validate() throws {
            do {
                try AudioFormat(sampleRate: rate, channels: channels, bitsPerSample: bits).validate()
            } catch {
                throw ValidationError(error.sentence)
            }
        }

        func run() throws {
            let format = AudioFormat(sampleRate: rate, channels: channels, bitsPerSample: bits)
            let settings = try CommandRunner.settings()
            let (article, script) = try CommandRunner.withLibrary { library throws(NarrationError) in
                // The text is read first, so that a file that is not text starts no article.
                let script = try text.map { (file) throws(NarrationError) in try ScriptReader.readDocument(fileAt: file) }
                var article = try library.newArticle(
                    title: title, publication: publication ?? settings.publication, narrator: narrator ?? settings.narrator,
                    format: format)
                if let script, let text { _ = try library.attachText(script.paragraphs, to: article, file: text) }
                // The day the page says it was published is the date listeners see.
                if let day = script?.published { article = try library.changeDetails(of: article, DetailsChange(date: day)).article }
                return (article, script)
            }
            let paragraphs = script?.paragraphs.count
            if output.json {
                Console.printJSON(ArticleJSON(article))
            } else {
                Console.print("Started \"\(article.title)\" (\(article.id)), \(article.format). It is now the current article.")
                // Said plainly, since an empty credit shows later in deliveries and the hours.
                if article.publication.isEmpty {
                    Console.print("No publication: its deliveries will be filed under \"unknown publication\". Give --publication, or set publication in config.toml.")
                }
                if article.narrator.isEmpty {
                    Console.print("No narrator: the recording credits nobody and the hours count it under \"\(VolunteerHours.noNarrator)\". Give --narrator, or set narrator in config.toml.")
                }
                if let paragraphs {
                    Console.print("Its text has \(paragraphs) paragraph\(paragraphs == 1 ? "" : "s"). Read the first with: narrate record")
                    if let author = script?.author { Console.print("The text names its author: \(author).") }
                    if let day = script?.published { Console.print("The text is dated \(day): listeners see that date (change it with: narrate edit --date).") }
                } else {
                    Console.print("Record the first chunk with: narrate record")
                }
            }
        }
    }
}
