import ArgumentParser

/// Paragraph numbers as a volunteer types them for `script --skip` and `--unskip`: one number,
/// a range, or several joined by commas (`3`, `2-10`, `2-4,7,9-10`), as a refusal to send
/// prints them. A range may use an en dash (`2–10`), as the messages write it.
struct ParagraphList: ExpressibleByArgument, Sendable {
    let numbers: [Int]

    /// More paragraphs than any article has; a bound that keeps a typed range from making an
    /// array of billions before the article's own count is checked.
    static let largest = 100_000

    init?(argument: String) {
        var numbers: [Int] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(whereSeparator: { $0 == "-" || $0 == "–" }).map(String.init)
            guard (1...2).contains(ends.count), part.first != "-", part.last != "-", part.last != "–",
                let first = Int(ends[0]), let last = Int(ends[ends.count - 1]),
                first >= 1, first <= last, last <= Self.largest
            else { return nil }
            numbers.append(contentsOf: first...last)
        }
        self.numbers = Array(Set(numbers)).sorted()
    }

    static var defaultValueDescription: String { "N, N-M, or several joined by commas: 2-4,7" }
}

/// `--incomplete` for the commands that send an article: whether to send it while paragraphs of
/// its text are neither read nor skipped. `export` writes a file where the volunteer asks, to
/// listen or share by hand, and sends nothing, so it takes no such flag; `outbox push` sends what
/// `queue` already let through.
struct IncompleteOption: ParsableArguments {
    @Flag(help: "Send the article even though paragraphs of its text are not read (without it, such an article is refused, naming them).")
    var incomplete = false
}
