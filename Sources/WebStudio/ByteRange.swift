/// The byte range of an HTTP `Range` header, for the article's audio (RFC 9110 §14.1.2): one
/// range of `bytes=first-last`, `bytes=first-` or `bytes=-suffix`. Several ranges at once are
/// not served (the whole file is, as the RFC allows).
///
/// Positions are digits only, of any length: one beyond `Int.max` is read as `Int.max` (past the
/// end of any file), so no arithmetic on them can overflow.
enum ByteRange {
    enum Parsed: Equatable {
        /// No usable Range header: the whole file.
        case whole
        case part(Range<Int>)
        /// Outside the file: 416.
        case unsatisfiable
    }

    static func parse(_ header: String?, size: Int) -> Parsed {
        precondition(size >= 0, "a file's size")
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let first = spec[0].trimmingCharacters(in: .whitespaces)
        let last = spec[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = position(last), suffix > 0 else { return .whole }
            return size == 0 ? .unsatisfiable : .part((size - min(size, suffix))..<size)
        }
        guard let start = position(first) else { return .whole }
        guard start < size else { return .unsatisfiable }
        if last.isEmpty { return .part(start..<size) }
        guard let end = position(last), end >= start else { return .whole }
        return .part(start..<(min(size - 1, end) + 1))
    }

    /// A byte position: ASCII digits only (no sign), saturating at `Int.max`; nil otherwise.
    static func position(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        var value = 0
        for digit in text.utf8 {
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if overflowA || overflowB { return .max }
            value = sum
        }
        return value
    }
}
