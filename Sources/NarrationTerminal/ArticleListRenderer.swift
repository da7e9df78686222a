public import Foundation
import NarrationCore
public import Studio

/// Draws the studio's article list as lines of text, pure like `StudioRenderer` (which calls it
/// for the list's panel): two lines an article, its title, then its publication, state,
/// paragraphs read of all, length and last change, scrolled so that the selection is in view.
///
/// ```
///  Your articles: Enter opens one, n starts a new one
///
/// ▸ Budget vote in the city council
///     Daily Post · open · 3 of 9 paragraphs read · 00:03:12 · 2026-11-26 14:02
///   Harbour plans
///     Daily Post · queued · no text · 00:12:40 · 2026-11-25 09:15
/// ```
public enum ArticleListRenderer {
    /// The list in at most `rows` lines of `width` columns; dates in `timeZone`.
    public static func lines(_ list: ArticleList, width: Int, rows: Int, timeZone: TimeZone = .current) -> [[StyledText]] {
        var lines: [[StyledText]] = [[StyledText(" Your articles", .heading), StyledText(": Enter opens one, n starts a new one", .dim)], []]
        guard !list.rows.isEmpty else {
            return lines + [[StyledText("   No articles yet: press n to start one.", .dim)]]
        }
        let fitsAll = list.rows.count * 2 <= rows - lines.count
        let visible = fitsAll ? list.rows.count : max(1, (rows - lines.count - 1) / 2)  // a line says there are more
        let top = max(0, min(list.selection - visible / 2, list.rows.count - visible))
        let shown = list.rows[top..<min(list.rows.count, top + visible)]
        for (offset, row) in shown.enumerated() {
            let selected = top + offset == list.selection
            let open = row.id == list.openArticle ? " (open now)" : ""
            let title = TerminalText.escaped(row.title).clipped(to: max(1, width - 4 - open.count))
            lines.append([StyledText("\(selected ? "▸" : " ") \(title)\(open)", selected ? .selected : .heading)])
            let publication = row.publication.isEmpty ? "no publication" : TerminalText.escaped(row.publication)
            let detail = [publication, row.state.rawValue, row.progress, Timecode.clock(row.seconds), changed(row.lastChange, in: timeZone)]
                .joined(separator: " · ")
            lines.append([StyledText("    " + detail.clipped(to: max(1, width - 4)), row.canOpen ? .plain : .dim)])
        }
        if shown.count < list.rows.count {
            lines.append([StyledText("   \(top + 1)–\(top + shown.count) of \(list.rows.count) articles; ↑ ↓ show more", .dim)])
        }
        return lines
    }

    /// "2026-11-26 14:02" in `timeZone`.
    static func changed(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}
