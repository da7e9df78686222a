/// The subcommand a mistyped one most likely meant: `narrate recrod` → `record`.
///
/// argument-parser says only "Unexpected argument 'recrod'"; this looks at the first argument
/// before parsing, so that a typo gets a suggestion. Written here because the few lines of an
/// edit distance do not warrant a dependency.
enum CommandSuggestion {
    /// The sentence for `word` when it is not one of `names` but close to one (at most two
    /// insertions, deletions, substitutions or swaps of neighbours, and fewer than half its
    /// letters); nil when `word` is a name, an option, or near none.
    static func sentence(for word: String, among names: [String]) -> String? {
        guard !word.hasPrefix("-"), !names.contains(word), word.count <= 40 else { return nil }
        let scored = names.map { (name: $0, distance: distance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= min(2, max(1, word.count / 2)) else {
            return nil
        }
        return "There is no command \"\(word)\". Did you mean \"\(best.name)\"? (narrate --help lists them all.)"
    }

    /// Optimal string alignment distance: edits of one character, and swaps of two neighbours.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
