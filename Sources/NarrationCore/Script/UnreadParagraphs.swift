/// The paragraphs of an article's text that no take reads and that are not skipped: what sending
/// the article now would leave out. A value the engine decides and every front end words its
/// own way (the command line names its flags, the studios ask).
///
/// An article without a text has nothing unread; neither has one whose every paragraph is read
/// or skipped.
public struct UnreadParagraphs: Sendable, Equatable {
    /// The unread paragraphs' numbers (from 1), ascending, never empty.
    public let numbers: [Int]
    /// How many paragraphs the text has.
    public let total: Int

    /// - Returns: nil when `numbers` is empty: nothing is unread.
    public init?(numbers: [Int], total: Int) {
        guard !numbers.isEmpty else { return nil }
        self.numbers = numbers.sorted()
        self.total = total
    }

    /// The numbers as runs of consecutive paragraphs: 2, 3, 4, 7, 9, 10 is 2…4, 7…7, 9…10.
    public var ranges: [ClosedRange<Int>] { Self.ranges(of: numbers) }

    /// Runs of consecutive numbers in `numbers` (ascending).
    public static func ranges(of numbers: [Int]) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        for number in numbers {
            if let last = ranges.last, last.upperBound + 1 == number {
                ranges[ranges.count - 1] = last.lowerBound...number
            } else if ranges.last?.contains(number) != true {
                ranges.append(number...number)
            }
        }
        return ranges
    }

    /// "Paragraph 3 of 10", "Paragraphs 2–10 of 10", "Paragraphs 2–4, 7 and 9–10 of 10".
    public var description: String {
        "\(numbers.count == 1 ? "Paragraph" : "Paragraphs") \(Self.spelled(ranges)) of \(total)"
    }

    /// The runs as a reader says them: "3", "2–10", "2–4, 7 and 9–10".
    public static func spelled(_ ranges: [ClosedRange<Int>]) -> String {
        let parts = ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }

    /// The runs as one word a command takes: "3", "2-10", "2-4,7,9-10".
    public var compact: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }

    /// The refusal to send the article as it is: what is unread, with the remedy that names the
    /// ways on (read, skip, or send it as it is).
    public var refusal: NarrationError {
        NarrationError(
            .articleUnfinished, "\(description) \(numbers.count == 1 ? "is" : "are") not read.", remedy: .readSkipOrSendIncomplete(self))
    }
}
