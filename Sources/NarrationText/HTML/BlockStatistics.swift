/// What a block of a page holds, counted while it is read: the measures by which a block is
/// judged the page's furniture (menus, share bars, related links, advertisements, sign-up forms,
/// pictures with their captions, cookie notices, date lines) rather than the article's text.
///
/// Readability-style extractors judge by structure and by link density (the characters inside
/// links over all the characters of a block); so does this, never by one site's class names.
struct BlockStatistics {
    /// Characters of text read inside the block, white space not counted.
    var characters = 0
    /// Of them, the characters inside links, outside headings.
    var linkCharacters = 0
    /// The links inside, outside headings.
    var links = 0
    /// Of them, the characters inside headings.
    var headingCharacters = 0
    /// Of them, the characters inside `<time>` elements.
    var timeCharacters = 0
    /// Whether a form, a control (button, input, select, text area) or a link that calls to act
    /// ("Subscribe", "Sign up", "Donate") is inside.
    var hasControls = false
    /// Whether a picture (`img`, `picture`, `amp-img`) or a player (`video`, `audio`, `iframe`) is inside.
    var hasPicture = false
    /// Whether an `h1` is inside: the block that holds the page's title is never dropped.
    var hasTitle = false
    /// The first paragraph read inside, kept or dropped.
    var firstParagraph: String?

    /// The characters outside headings: what the block says besides its headings.
    var bodyCharacters: Int { characters - headingCharacters }

    /// Adds what a child element held (one that was kept).
    mutating func absorb(_ child: BlockStatistics) {
        characters += child.characters
        linkCharacters += child.linkCharacters
        links += child.links
        headingCharacters += child.headingCharacters
        timeCharacters += child.timeCharacters
        hasControls = hasControls || child.hasControls
        hasPicture = hasPicture || child.hasPicture
        hasTitle = hasTitle || child.hasTitle
        if firstParagraph == nil { firstParagraph = child.firstParagraph }
    }

    /// Whether the block is the page's furniture rather than the article, judged from what it
    /// holds and the paragraphs read in it (its nested blocks already judged and, if furniture,
    /// gone):
    /// - more than half of its text, headings aside, is in links (menus, share bars, related
    ///   links, tag lists, "Read more" lines), or two fifths of a short block's with two links
    ///   or more (a site's address line with "Contact us" and "Privacy");
    /// - it holds a form or a button and under 300 characters (a sign-up box, a share bar);
    /// - it holds a picture or a player and under 200 characters (a picture and its caption);
    /// - its first paragraph is an advertisement's label and it is short;
    /// - it speaks of cookies and holds a button or link (a consent notice);
    /// - it is a date with a few words around it (a "Published 3 May 2026, 09:00" line).
    /// A block that holds an `h1` is never furniture: the title lives there.
    /// `paragraphs` is asked for only when the block is short.
    func isFurniture(paragraphs: () -> [String]) -> Bool {
        if hasTitle { return false }
        let body = bodyCharacters
        guard body > 0 else { return false }
        if linkCharacters * 2 > body { return true }
        if body < 100, links >= 2, linkCharacters * 5 >= body * 2 { return true }
        if hasControls && body < 300 { return true }
        if hasPicture && body < 200 { return true }
        if timeCharacters > 0, body - timeCharacters <= 24 { return true }
        guard body < 1000 else { return false }
        let paragraphs = paragraphs()
        if let first = firstParagraph, body < 500, PageFurnitureText.isAdvertisementLabel(first) { return true }
        return (hasControls || linkCharacters > 0) && paragraphs.contains { $0.lowercased().contains("cookie") }
    }
}
