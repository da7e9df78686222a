import NarrationCore

/// Short paragraphs and headings that are a page's furniture by their words alone, in English:
/// share bars, comment counts, advertisement labels, sign-up calls, copyright lines, picture
/// credits, bylines and date lines; and the headings of sections that are not the article
/// (comments, related and most-read lists). Pure: text in, verdict out.
enum PageFurnitureText {
    /// What a short paragraph is, when it is not the article's text.
    enum Verdict: Equatable {
        /// A share bar, a comment count, an advertisement's label, a sign-up call, a copyright
        /// line, a picture's credit, a "Read more" line.
        case furniture
        /// A byline: the author's name as written after "By", and the day when one follows.
        case byline(author: String, day: String?)
        /// A date line, with the day when it can be read (`YYYY-MM-DD`).
        case dateLine(day: String?)
    }

    /// The verdict on a paragraph, or nil when it is (as far as its words show) the article's.
    /// Only short paragraphs (at most 24 words) are judged.
    static func verdict(on text: String) -> Verdict? {
        let words = self.words(text)
        guard !words.isEmpty, words.count <= 24 else { return nil }
        let lower = words.map { $0.lowercased() }
        if isAdvertisementLabel(text) { return .furniture }
        let bare = lower.map { $0.trimmingCharacters(":.…!,") }.filter { !$0.isEmpty }
        if bare.allSatisfy({ sharingWords.contains($0) || isNumber($0) }), bare.contains(where: { sharingVerbs.contains($0) }) { return .furniture }
        if isCommentCount(lower) { return .furniture }
        if let first = lower.first, first == "©" || text.hasPrefix("©") || (first == "copyright" && words.count <= 16) { return .furniture }
        if exactFurniture.contains(lower.joined(separator: " ").trimmingCharacters(":.…,")) { return .furniture }
        if words.count <= 12, furniturePrefixes.contains(where: { startsWith(lower, $0) }) { return .furniture }
        if words.count <= 20, creditPrefixes.contains(where: { startsWith(lower, $0) }) { return .furniture }
        if words.count <= 30, sentences(text).contains(where: isCallToAct) { return .furniture }
        if words.count <= 4, let last = bare.last, jobTitles.contains(last), words.allSatisfy({ $0.first?.isUppercase == true }) { return .furniture }
        if let (author, rest) = bylineAndRest(words) { return .byline(author: author, day: rest.isEmpty ? nil : dateLine(rest.map { $0.lowercased() }) ?? nil) }
        if words.count <= 12, let day = dateLine(lower) { return .dateLine(day: day) }
        if words.count <= 16, let by = lower.firstIndex(of: "by"), by > 0, dateLine(Array(lower[..<by])) != nil,
           let author = byline(Array(words[by...])) {
            // "Posted on May 3, 2026 by Jo Baker"
            return .byline(author: author, day: dateLine(Array(lower[..<by])) ?? nil)
        }
        if words.count <= 16, let (name, day) = nameThenDate(words) { return .byline(author: name, day: day) }
        return nil
    }

    /// Whether a link's or a sentence's words call the reader to act on the site rather than read
    /// on: "Subscribe now", "Sign up for our newsletter", "Donate", "Log in".
    static func isCallToAct(_ text: String) -> Bool {
        let lower = words(text).prefix(3).map { $0.lowercased().trimmingCharacters(":.…!,") }
        guard let first = lower.first else { return false }
        if ["subscribe", "donate", "register", "login"].contains(first) { return true }
        let two = lower.prefix(2).joined(separator: " ")
        return ["sign up", "sign in", "log in", "already a", "join now", "support us", "become a", "buy now", "try free"].contains(two)
    }

    /// Whether a paragraph is a person's name alone: two or three capitalised words of letters.
    static func isLoneName(_ text: String) -> Bool {
        let words = self.words(text)
        return (2...3).contains(words.count)
            && words.allSatisfy { $0.first?.isUppercase == true && $0.allSatisfy { $0.isLetter || "-'’.".contains($0) } }
    }

    /// The sentences of a paragraph, split after ".", "!" and "?".
    private static func sentences(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if ".!?".contains(character) { sentences.append(current); current = "" }
        }
        if !current.isEmpty { sentences.append(current) }
        return sentences
    }

    /// A name of two to four capitalised words followed by a date line with a day or a time:
    /// "Gwen Tallis 3 May 2026", "Tomasz Nowak 07:30, 12 SEP 2026".
    private static func nameThenDate(_ words: [Substring]) -> (String, String?)? {
        for count in 2...4 where words.count > count {
            let name = words.prefix(count)
            guard name.allSatisfy({ $0.first?.isUppercase == true && $0.allSatisfy { $0.isLetter || "-'’.".contains($0) } }) else { return nil }
            let rest = words.dropFirst(count).map { $0.lowercased() }
            if let day = dateLine(Array(rest)), day != nil || rest.contains(where: { $0.contains(":") }) {
                return (name.joined(separator: " "), day)
            }
        }
        return nil
    }

    /// A byline's name and the words after it.
    private static func bylineAndRest(_ words: [Substring]) -> (String, [Substring])? {
        guard let author = byline(words) else { return nil }
        let nameWords = PageFurnitureText.words(author).count
        let lead = words.first?.lowercased() == "by" ? 1 : 2
        return (author, Array(words.dropFirst(lead + nameWords)))
    }

    /// Whether a heading opens a section that is not the article's: readers' comments, related or
    /// most-read lists, a newsletter box. The whole section goes, up to the next heading of the
    /// same or a higher rank.
    static func isForeignSectionHeading(_ text: String) -> Bool {
        let lower = words(text).map { $0.lowercased() }
        guard !lower.isEmpty, lower.count <= 10 else { return false }
        if isCommentCount(lower) { return true }
        let joined = lower.joined(separator: " ")
        return foreignSectionHeadings.contains { joined == $0 || joined.hasPrefix($0 + " ") }
    }

    /// Whether a paragraph is an advertisement's label: "Advertisement", "Sponsored content",
    /// "Story continues below advertisement", or a paragraph that starts "Advertisement:".
    static func isAdvertisementLabel(_ text: String) -> Bool {
        let lower = words(text).map { $0.lowercased() }
        guard let first = lower.first else { return false }
        let joined = lower.joined(separator: " ")
        if advertisementLabels.contains(joined) { return true }
        if ["advertisement", "advertisement:", "advert", "advert:", "sponsored", "sponsored:", "promoted", "promoted:", "ad:"].contains(first),
           lower.count <= 24, text.trimmingPrefixWhitespace.dropFirst(first.count).first.map({ ":–—-|".contains($0) }) ?? true {
            return true
        }
        return lower.count <= 8 && (joined.contains("continues below") || joined.contains("continues after"))
    }

    // MARK: - Bylines and dates

    /// The author's name in a byline: "By Ann Smith", "By Ann Smith and Bo Lee · 3 May",
    /// "By Ann Smith, Bo Lee and Cy Hall", "Written by Ann Smith, Environment Correspondent"; nil
    /// for anything else. The name is the capitalised words after "By", up to a separator or a
    /// word in lower case; after a comma only when an "and" joins more names later.
    static func byline(_ words: [Substring]) -> String? {
        guard words.count <= 20, let end = words.last?.last, !".!?".contains(end) else { return nil }
        var rest = words[...]
        let lead = rest.prefix(2).map { $0.lowercased() }
        if lead.first == "by" { rest = rest.dropFirst() }
        else if lead.count == 2, ["written", "words", "posted", "story", "text"].contains(lead[0]), lead[1] == "by" { rest = rest.dropFirst(2) }
        else { return nil }
        var segments: [[Substring]] = [[]]
        for word in rest {
            var word = word
            var comma = false
            var stop = false
            while let last = word.last, ",·•|;".contains(last) {
                if last == "," { comma = true } else { stop = true }
                word = word.dropLast()
            }
            if word.isEmpty || "·•|–—-".contains(word) { break }
            let isJoiner = ["and", "&"].contains(word.lowercased())
            guard isJoiner || word.first?.isUppercase == true else { break }
            let lower = word.lowercased()
            if monthNames.contains(lower) || weekdays.contains(lower) {
                if segments.joined().isEmpty { return nil }
                break
            }
            segments[segments.count - 1].append(word)
            if stop || segments.joined().count >= 12 { break }
            if comma { segments.append([]) }
        }
        // Names after a comma are names only when an "and" follows among them.
        let lastJoined = segments.lastIndex { $0.contains { ["and", "&"].contains($0.lowercased()) } } ?? 0
        var names = segments[...lastJoined].filter { !$0.isEmpty }
        guard !names.isEmpty else { return nil }
        while let last = names.last?.last, ["and", "&"].contains(last.lowercased()) { names[names.count - 1].removeLast() }
        let name = names.map { $0.joined(separator: " ") }.filter { !$0.isEmpty }.joined(separator: ", ")
        return name.isEmpty ? nil : name
    }

    /// The day of a date line: "3 May 2026", "May 3, 2026 at 9:12 am", "Published Thursday
    /// 7 May 2026, 11:00", "Updated 2026-05-03"; `.some(nil)` for a date line whose day has no year
    /// ("Updated 09:00 BST"), nil for a paragraph that is not a date line.
    static func dateLine(_ lower: [String]) -> String?? {
        var day: Int?
        var month: Int?
        var year: Int?
        var iso: String?
        var sawDateWord = lower.contains("ago")
        for raw in lower {
            let word = raw.trimmingCharacters(",.;:|·•()")
            if word.isEmpty || dateLineWords.contains(word) { continue }
            if let index = monthNames.firstIndex(where: { word == $0 || (word.count >= 3 && $0.hasPrefix(word)) }) {
                month = index % 12 + 1; sawDateWord = true; continue
            }
            // A weekday alone ("When: Tuesday") is no date line; with a month or a time it is part of one.
            if weekdays.contains(where: { word == $0 || (word.count >= 3 && $0.hasPrefix(word)) }) { continue }
            if ListenerDate.isWellFormed(String(word.prefix(10))) { iso = String(word.prefix(10)); sawDateWord = true; continue }
            let digits = word.hasSuffix("st") || word.hasSuffix("nd") || word.hasSuffix("rd") || word.hasSuffix("th") ? String(word.dropLast(2)) : word
            if let number = Int(digits), digits.allSatisfy(\.isASCII) {
                if number >= 1000 { year = year ?? number } else if (1...31).contains(number) { day = day ?? number } else { return nil }
                continue
            }
            if isClockTime(word) { sawDateWord = true; continue }
            return nil
        }
        guard sawDateWord else { return nil }
        if let iso { return .some(iso) }
        if let day, let month, let year {
            let text = "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
            return .some(ListenerDate.isWellFormed(text) ? text : nil)
        }
        return .some(nil)
    }

    // MARK: - Words

    /// The paragraph's words, split at white space.
    static func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }

    private static func startsWith(_ lower: [String], _ prefix: [String]) -> Bool {
        lower.count >= prefix.count && zip(lower, prefix).allSatisfy { $0.trimmingCharacters(":.…,") == $1 }
    }

    private static func isNumber(_ word: String) -> Bool {
        let digits = word.trimmingCharacters("().,:")
        return !digits.isEmpty && digits.allSatisfy { $0.isNumber || $0 == "k" || $0 == "." }
    }

    /// "12 comments", "Comments (12)", "1 comment", "View 12 comments", "12 thoughts on …",
    /// "3 responses to …".
    private static func isCommentCount(_ lower: [String]) -> Bool {
        let words = lower.map { $0.trimmingCharacters("().,:") }.filter { !$0.isEmpty }
        guard let first = words.first else { return false }
        let counted = words.count >= 2 && isNumber(first) && ["comment", "comments", "thoughts", "responses", "response", "replies", "reply"].contains(words[1])
        let named = ["comments", "comment"].contains(first) && words.count <= 2 && words.dropFirst().allSatisfy(isNumber)
        let viewed = ["view", "show", "read", "see"].contains(first) && words.count <= 4 && words.last.map { ["comments", "comment"].contains($0) } == true
        return counted || named || viewed
    }

    private static func isClockTime(_ word: String) -> Bool {
        let core = word.replacingSuffixes(["am", "pm", "a.m", "p.m", "a.m.", "p.m."])
        let parts = core.split(whereSeparator: { $0 == ":" || $0 == "." })
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            && (parts.count == 2 || core != word)
    }

    /// Words a share bar is made of; one of `sharingVerbs` must be there.
    private static let sharingWords: Set<String> = [
        "share", "shares", "sharing", "on", "to", "via", "this", "the", "article", "story", "page", "post", "link", "copy", "copied",
        "facebook", "twitter", "x", "email", "e-mail", "mail", "whatsapp", "linkedin", "pinterest", "reddit", "telegram",
        "messenger", "bluesky", "threads", "mastodon", "flipboard", "print", "save", "tweet", "gift", "send", "comments",
        "comment", "like", "likes", "loading", "|", "·", "•", "/",
    ]
    private static let sharingVerbs: Set<String> = ["share", "sharing", "tweet", "email", "e-mail", "print", "copy", "whatsapp", "facebook", "like"]
    /// Last words of a byline's second line: "Health Reporter", "Environment Correspondent".
    private static let jobTitles: Set<String> = [
        "reporter", "correspondent", "editor", "writer", "columnist", "contributor", "journalist", "staff", "desk", "critic",
    ]

    /// Exact short paragraphs and first words of a short paragraph that are furniture.
    private static let furniturePrefixes: [[String]] = [
        ["read", "more"], ["related"], ["see", "also"], ["also", "read"], ["recommended"], ["more", "on", "this", "story"],
        ["skip", "to"], ["back", "to", "top"], ["jump", "to"], ["sign", "up"], ["subscribe"], ["follow", "us"],
        ["leave", "a", "comment"], ["leave", "a", "reply"], ["add", "a", "comment"], ["join", "the", "conversation"],
        ["join", "the", "discussion"], ["listen", "to", "this", "article"], ["tags"], ["filed", "under"],
        ["categories"], ["category"], ["posted", "in"], ["topics"], ["click", "here"], ["enable", "javascript"], ["loading"],
    ]
    private static let exactFurniture: Set<String> = [
        "reply", "report", "print", "share", "email", "more", "menu", "close", "search", "log in", "sign in", "register",
        "back to top", "top", "next", "previous", "next article", "previous article", "view all", "see all", "show more", "load more",
    ]
    private static let creditPrefixes: [[String]] = [
        ["photo"], ["photograph"], ["photographs"], ["picture"], ["image"], ["credit"], ["illustration"], ["video"],
        ["reporting", "by"], ["additional", "reporting", "by"], ["editing", "by"], ["writing", "by"], ["compiled", "by"],
    ]
    private static let advertisementLabels: Set<String> = [
        "advertisement", "advert", "ad", "ads", "sponsored", "sponsored content", "paid content", "partner content", "promoted",
        "promoted content", "paid post", "advertising", "remove ads", "ad feedback",
    ]
    private static let foreignSectionHeadings: [String] = [
        "comments", "comment", "reader comments", "readers' comments", "leave a reply", "leave a comment", "join the conversation",
        "join the discussion", "what readers say", "conversation", "discussion", "guest book", "guestbook", "sign the guest book",
        "related", "related articles", "related stories", "related content", "related posts", "related reading", "related links",
        "more from", "more on this story", "more stories", "more news", "most read", "most popular", "most viewed", "popular",
        "trending", "you may also like", "you might also like", "recommended", "recommended for you", "read next", "up next",
        "around the web", "latest news", "latest stories", "top stories", "editor's picks", "editors' picks", "don't miss",
        "newsletter", "sign up", "subscribe", "follow us", "share this", "share this article", "share this story",
    ]
    private static let dateLineWords: Set<String> = [
        "published", "updated", "posted", "last", "modified", "first", "on", "at", "date", "dated", "-", "–", "—", "|", "·", "•",
        "bst", "gmt", "utc", "cet", "cest", "est", "edt", "pst", "pdt", "et", "pt", "am", "pm", "a.m.", "p.m.", "today", "ago",
        "hours", "hour", "minutes", "minute", "days", "day", "yesterday", "and", "the", "of",
    ]
    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sept", "oct", "nov", "dec",
    ]
    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
}

extension String {
    /// The string without the characters of `set` at either end.
    fileprivate func trimmingCharacters(_ set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }

    fileprivate var trimmingPrefixWhitespace: Substring { drop(while: \.isWhitespace) }

    fileprivate func replacingSuffixes(_ suffixes: [String]) -> String {
        for suffix in suffixes.sorted(by: { $0.count > $1.count }) where hasSuffix(suffix) { return String(dropLast(suffix.count)) }
        return self
    }
}
