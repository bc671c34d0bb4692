/// "Did you mean …?": the known word closest to a misspelt one, for messages about unknown keys and values.
package enum Suggestion {
    /// The candidate a person most likely meant by `word`: the one fewest edits away (ignoring case; a swap of
    /// two neighbouring letters is one edit) when that is close enough for the word's length, else the longest
    /// candidate the word starts with (`KEY_LEFTARROW` → `KEY_LEFT`); nil when none is close.
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let lowered = Array(word.lowercased())
        let limit = lowered.count < 6 ? 1 : lowered.count < 12 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        var longestPrefix: String?
        for candidate in candidates where candidate != word {
            let other = Array(candidate.lowercased())
            let distance = editDistance(lowered, other, limit: limit)
            if distance <= limit, distance < best?.distance ?? Int.max { best = (candidate, distance) }
            if other.count >= 4, lowered.starts(with: other), other.count > longestPrefix?.count ?? 0 {
                longestPrefix = candidate
            }
        }
        return best?.candidate ?? longestPrefix
    }

    /// ` (did you mean "phone"?)`, to follow the unknown word in a message; empty when nothing is close.
    package static func phrase(for word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps), or `limit + 1`
    /// as soon as it is certain to exceed `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
