public import NarrationCore

/// The terminal's words for a remedy: the command to run or the flag to give, for the command line
/// and the terminal studio alike.
///
/// The engine says what happened (`NarrationError.message`) and picks a `Remedy`; this is the one
/// place that turns a remedy into narrate's commands and flags.
extension Remedy {
    /// The remedy as the command line says it, and how it joins the message before it.
    public var commandLine: (text: String, joinsSentence: Bool) {
        switch self {
        case .startArticle: ("Start one with \"narrate new TITLE\" or pass --article ID.", false)
        case .listArticles: ("Run \"narrate list\" to see the articles.", false)
        case .listChunks: ("Run \"narrate chunks\" to see them.", false)
        case .recordChunk: ("Record one with \"narrate record\".", false)
        case .showDeliveredFile: ("Its delivered file is listed by \"narrate outbox\".", false)
        case .listDevices: ("Run \"narrate devices\" to list devices.", false)
        case .chooseOtherDevice: ("Close that program or choose another device with --device.", false)
        case .chooseSupportedFormat:
            ("Create the article with a format the device supports (narrate new --rate/--channels/--bits) or choose another device.", false)
        case .replaceOrDeleteChunk(let index, .nothing): ("Re-record it (narrate record --replace \(index)) or delete it.", false)
        case .replaceOrDeleteChunk(let index, .playAroundIt):
            ("Re-record it (narrate record --replace \(index)), delete it, or play around it with --skip-missing.", false)
        case .replaceOrDeleteChunk(let index, .exportAgain): ("Re-record it (narrate record --replace \(index)) or delete it, then export again.", false)
        case .sendOutboxLater: ("The file stays in the outbox; \"narrate outbox push\" tries again.", false)
        case .listOutboxJobs: ("Run \"narrate outbox list --all\" to see them.", false)
        case .waitThenShowOutbox: ("Wait for it to finish; \"narrate outbox\" then shows the result.", false)
        case .submitFirst: ("run \"narrate submit\" first.", true)
        case .openLibraryOnce: ("Then run \"narrate list\" once.", false)
        case .giveTitle: ("Give the article a title, e.g. narrate new \"City council votes on budget\".", false)
        case .setDestination: ("Set destination in config.toml (or start the studio with --to).", false)
        case .pushOutboxTo: ("Send it later with: narrate outbox push --to FOLDER or s3://BUCKET/PREFIX", false)
        case .listParagraphs: ("Run \"narrate script\" to see them.", false)
        case .attachText: ("Attach it with \"narrate script FILE\".", false)
        case .rereadOrContinue: ("Re-read one with \"narrate record --paragraph N\" or add to one with --continue.", false)
        case .readSkipOrSendIncomplete(let unread):
            ("read \(unread.numbers.count == 1 ? "it" : "them"), skip \(unread.numbers.count == 1 ? "it" : "them") (narrate script --skip \(unread.compact)), or send it as it is with --incomplete.", true)
        case .unskipParagraph(let number): ("Unskip it first with \"narrate script --unskip \(number)\".", false)
        case .undoDeletion: ("narrate undo brings it back (narrate history lists what was deleted).", true)
        case .showHistory: ("(narrate history lists them).", true)
        case .attachOldText: ("attach the old text again with narrate script FILE. Nothing was changed.", true)
        case .punchWithinChunk: ("punch in at a time within it, or add a chunk with narrate record --insert.", true)
        case .trimWithinChunk: ("give --start and --end within it.", true)
        case .deleteChunkInstead(let index): ("to remove it, use narrate delete-chunk \(index).", true)
        case .deliverOrDeleteAnyway: ("deliver it first (narrate outbox push), or delete it anyway with --force, which withdraws the export.", true)
        }
    }
}

extension NarrationError {
    /// The failure as one line for the terminal: what happened, then what to do, in narrate's
    /// commands.
    public var sentence: String { remedy.said(after: message(naming: \.commandLine)) }
}

extension InputField {
    /// The field as the command line names it: the flag that carries it.
    public var commandLine: String {
        switch self {
        case .listenerDate: "--date"
        case .trimStart: "--start"
        case .trimEnd: "--end"
        }
    }
}

extension Optional<Remedy> {
    /// `message` followed by the remedy in the terminal's words; a remedy that joins the sentence
    /// follows the message's last clause after "; ".
    public func said(after message: String) -> String {
        guard let self else { return message }
        let (text, joins) = self.commandLine
        guard joins, message.hasSuffix(".") else { return "\(message) \(text)" }
        switch self {
        // The ways on after what is unread, after a time outside the chunk, or after an export
        // not yet delivered, follow a colon.
        case .readSkipOrSendIncomplete, .punchWithinChunk, .deliverOrDeleteAnyway: return "\(message.dropLast()): \(text)"
        // Where to look follows in brackets: "… left to reverse (narrate history lists them)."
        case .showHistory: return "\(message.dropLast()) \(text)"
        default: break
        }
        return "\(message.dropLast()); \(text)"
    }
}
