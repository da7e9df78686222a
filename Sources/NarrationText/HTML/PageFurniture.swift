import NarrationCore

/// The last pass over a page's paragraphs: short paragraphs that are furniture by their words,
/// sections that are not the article's, and headings left with nothing under them, dropped; the
/// byline's author and the date line's day kept.
enum PageFurniture {
    /// A paragraph read from the page, with its heading rank (1 for `h1`; nil for body text).
    struct Piece {
        let paragraph: ScriptParagraph
        let rank: Int?
        /// Whether body text of some length came before it: a date line after that is not the article's.
        let afterBody: Bool
    }

    /// What the page's text said of its author and day.
    struct Byline: Equatable {
        var author: String?
        var day: String?
    }

    /// The paragraphs to read of `pieces`, and the byline found among them or among the `dropped`
    /// blocks' paragraphs. A short paragraph that is only the `author` the page names is dropped too.
    static func withoutFurniture(_ pieces: [Piece], dropped: [Piece], author: String?) -> ([ScriptParagraph], Byline) {
        var byline = Byline()
        var kept: [Piece] = []
        var foreignRank: Int?
        var seenTitle = false
        func note(_ verdict: PageFurnitureText.Verdict?, _ piece: Piece) {
            switch verdict {
            case .byline(let author, let day):
                byline.author = byline.author ?? author
                if !piece.afterBody { byline.day = byline.day ?? day }
            case .dateLine(let day): if !piece.afterBody { byline.day = byline.day ?? day }
            default: break
            }
        }
        for piece in pieces {
            if let rank = piece.rank {
                if let open = foreignRank, rank > open { continue }
                foreignRank = nil
                if PageFurnitureText.isForeignSectionHeading(piece.paragraph.text) { foreignRank = rank; continue }
            } else if foreignRank != nil {
                continue
            }
            if piece.rank == nil, let author, piece.paragraph.text == author { continue }
            if piece.rank == 1 { seenTitle = true }
            let verdict = PageFurnitureText.verdict(on: piece.paragraph.text)
            switch verdict {
            case nil:
                // Between the title and the article's first paragraph, a name alone is the byline.
                if piece.rank == nil, seenTitle, !piece.afterBody, PageFurnitureText.isLoneName(piece.paragraph.text) {
                    byline.author = byline.author ?? piece.paragraph.text
                } else {
                    kept.append(piece)
                }
            case .furniture: break
            case .byline, .dateLine: if piece.rank != nil { kept.append(piece) } else { note(verdict, piece) }
            }
        }
        for piece in dropped where piece.rank == nil { note(PageFurnitureText.verdict(on: piece.paragraph.text), piece) }
        let withoutEmpty = withoutSectionLabels(withoutEmptySections(kept))
        return ((withoutEmpty.isEmpty ? kept : withoutEmpty).map(\.paragraph), byline)
    }

    /// Drops a paragraph of one or two words just before the page's title (`h1`): the name of the
    /// site's section ("Opinion", "Retail").
    private static func withoutSectionLabels(_ pieces: [Piece]) -> [Piece] {
        pieces.enumerated().filter { index, piece in
            !(piece.rank == nil && index + 1 < pieces.count && pieces[index + 1].rank == 1
              && PageFurnitureText.words(piece.paragraph.text).count <= 2)
        }.map(\.element)
    }

    /// Drops each heading followed by nothing but a heading of the same or a higher rank, or the end.
    private static func withoutEmptySections(_ pieces: [Piece]) -> [Piece] {
        var kept: [Piece] = []
        var nextRank: Int?  // the rank of the next kept piece when it is a heading; 0 for body text; nil at the end
        for piece in pieces.reversed() {
            if let rank = piece.rank {
                if nextRank.map({ $0 != 0 && $0 <= rank }) ?? true { continue }
                nextRank = rank
            } else {
                nextRank = 0
            }
            kept.append(piece)
        }
        return kept.reversed()
    }
}
