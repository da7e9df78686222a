/// The byte range of an HTTP `Range` header, for the article's audio (RFC 9110 §14.1.2): one
/// range of `bytes=first-last`, `bytes=first-` or `bytes=-suffix`. Several ranges at once are
/// not served (the whole file is, as the RFC allows).
enum ByteRange {
    enum Parsed: Equatable {
        /// No usable Range header: the whole file.
        case whole
        case part(Range<Int>)
        /// Outside the file: 416.
        case unsatisfiable
    }

    static func parse(_ header: String?, size: Int) -> Parsed {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let first = spec[0].trimmingCharacters(in: .whitespaces)
        let last = spec[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return .whole }
            return size == 0 ? .unsatisfiable : .part(max(0, size - suffix)..<size)
        }
        guard let start = Int(first), start >= 0 else { return .whole }
        guard start < size else { return .unsatisfiable }
        if last.isEmpty { return .part(start..<size) }
        guard let end = Int(last), end >= start else { return .whole }
        return .part(start..<min(size, end + 1))
    }
}
