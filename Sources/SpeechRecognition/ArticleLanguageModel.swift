import func Foundation.log10

/// A trigram language model of one article's own sentences, written as an ARPA file for the
/// recogniser: it expects the article's words in the article's order, and still allows any of
/// its words after any other (a take that skips or strays).
///
/// Counts come from the sentences, each between `<s>` and `</s>`. Bigrams and trigrams are
/// discounted by a fixed amount (`discount`, absolute discounting) and the mass set free goes to
/// the next lower order through a backoff weight, so that the probabilities of each context sum
/// to one. Unigrams are maximum-likelihood (every word of the vocabulary occurs).
///
/// Pure text generation; nothing here is an error.
struct ArticleLanguageModel {
    /// The count subtracted from every bigram and trigram; with single occurrences, as most are
    /// in one article, half the mass of a context is left for what the text does not say next.
    static let discount = 0.5

    private var unigrams: [String: Int] = [:]
    private var bigrams: [Pair: Int] = [:]
    private var trigrams: [Triple: Int] = [:]

    private struct Pair: Hashable { var first: String, second: String }
    private struct Triple: Hashable { var first: String, second: String, third: String }

    /// The model of `sentences`, each a list of words (already restricted to the vocabulary),
    /// and of `fragments`: runs of words counted as they are, without a sentence's start and end
    /// (the junction of a restart: the last words read, then the words gone back to).
    init(sentences: [[String]], fragments: [[String]] = []) {
        for sentence in sentences where !sentence.isEmpty {
            count(["<s>"] + sentence + ["</s>"], from: 1)
        }
        for fragment in fragments where fragment.count >= 2 {
            count(fragment, from: fragment.count - 2)
        }
    }

    /// Counts the n-grams of `words` that end at `from` or later (earlier words are context).
    private mutating func count(_ words: [String], from: Int) {
        for index in max(1, from)..<words.count {
            unigrams[words[index], default: 0] += 1
            bigrams[Pair(first: words[index - 1], second: words[index]), default: 0] += 1
            if index >= 2 { trigrams[Triple(first: words[index - 2], second: words[index - 1], third: words[index]), default: 0] += 1 }
        }
    }

    /// The junctions of the restarts a narrator makes in `sentence`: from each of its first
    /// words back to its start, and from every word back one to three words.
    static func restartJunctions(of sentence: [String]) -> [[String]] {
        guard sentence.count >= 2 else { return [] }
        var junctions: [[String]] = []
        for end in 1..<sentence.count {
            // Back to the start: "... w(end-1) w(end) | w0 w1".
            if end < 8 { junctions.append([sentence[end - 1], sentence[end], sentence[0], sentence[1]]) }
            for back in 1...3 where end - back >= 1 && back < end {
                junctions.append([sentence[end - 1], sentence[end], sentence[end - back], sentence[end - back + 1]])
            }
        }
        return junctions
    }

    /// The model in ARPA format: log10 probabilities and backoff weights.
    var arpa: String {
        let total = Double(unigrams.values.reduce(0, +))
        let unigram = unigrams.mapValues { Double($0) / total }

        // Bigram contexts: how often each word is followed by anything, and by what.
        var contextCount: [String: Int] = [:]
        var followers: [String: [String]] = [:]
        for (pair, count) in bigrams {
            contextCount[pair.first, default: 0] += count
            followers[pair.first, default: []].append(pair.second)
        }
        func bigramProbability(_ pair: Pair) -> Double {
            (Double(bigrams[pair]!) - Self.discount) / Double(contextCount[pair.first]!)
        }
        var unigramBackoff: [String: Double] = [:]
        for (context, next) in followers {
            let freed = Self.discount * Double(next.count) / Double(contextCount[context]!)
            let lowerMass = next.reduce(0) { $0 + (unigram[$1] ?? 0) }
            unigramBackoff[context] = freed / max(1 - lowerMass, 1e-6)
        }

        var trigramContextCount: [Pair: Int] = [:]
        var trigramFollowers: [Pair: [String]] = [:]
        for (triple, count) in trigrams {
            let context = Pair(first: triple.first, second: triple.second)
            trigramContextCount[context, default: 0] += count
            trigramFollowers[context, default: []].append(triple.third)
        }
        var bigramBackoff: [Pair: Double] = [:]
        for (context, next) in trigramFollowers {
            let freed = Self.discount * Double(next.count) / Double(trigramContextCount[context]!)
            // Every word seen after (u, v) was seen after v: the lower order is the bigram itself.
            let lowerMass = next.reduce(0) { $0 + bigramProbability(Pair(first: context.second, second: $1)) }
            bigramBackoff[context] = freed / max(1 - lowerMass, 1e-6)
        }

        func log(_ value: Double) -> String { String(format4: log10(max(value, 1e-99))) }
        var lines = ["\\data\\", "ngram 1=\(unigrams.count + 1)", "ngram 2=\(bigrams.count)", "ngram 3=\(trigrams.count)", "", "\\1-grams:"]
        lines.append("-99.0000 <s> \(log(unigramBackoff["<s>"] ?? 1))")
        for word in unigrams.keys.sorted() {
            lines.append("\(log(unigram[word]!)) \(word)" + (unigramBackoff[word].map { " \(log($0))" } ?? ""))
        }
        lines += ["", "\\2-grams:"]
        for pair in bigrams.keys.sorted(by: { ($0.first, $0.second) < ($1.first, $1.second) }) {
            lines.append("\(log(bigramProbability(pair))) \(pair.first) \(pair.second)" + (bigramBackoff[pair].map { " \(log($0))" } ?? ""))
        }
        lines += ["", "\\3-grams:"]
        for triple in trigrams.keys.sorted(by: { ($0.first, $0.second, $0.third) < ($1.first, $1.second, $1.third) }) {
            let context = Pair(first: triple.first, second: triple.second)
            let probability = (Double(trigrams[triple]!) - Self.discount) / Double(trigramContextCount[context]!)
            lines.append("\(log(probability)) \(triple.first) \(triple.second) \(triple.third)")
        }
        lines += ["", "\\end\\", ""]
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// `value` with four decimals, without Foundation's locale-dependent formatting.
    init(format4 value: Double) {
        let scaled = (abs(value) * 10_000).rounded()
        let whole = Int(scaled / 10_000)
        let fraction = Int(scaled) % 10_000
        let digits = String(fraction)
        self = (value < 0 && scaled > 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
