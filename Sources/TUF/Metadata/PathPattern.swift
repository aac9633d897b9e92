/// TUF's delegation path patterns: the pattern and the target path split at `/` must have as many
/// segments, and each segment match as Python's `fnmatch` does (`*`, `?`, `[seq]`, `[!seq]`).
enum PathPattern {
    static func matches(_ targetPath: String, pattern: String) -> Bool {
        let targetParts = targetPath.split(separator: "/", omittingEmptySubsequences: false)
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        guard targetParts.count == patternParts.count else { return false }
        return zip(targetParts, patternParts).allSatisfy {
            segmentMatches(Array($0.unicodeScalars), Array($1.unicodeScalars))
        }
    }

    private static func segmentMatches(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        // Iterative wildcard matching with backtracking to the last `*`.
        var t = 0, p = 0
        var star: Int?, starText = 0
        while t < text.count {
            if p < pattern.count {
                switch pattern[p] {
                case "*":
                    star = p
                    starText = t
                    p += 1
                    continue
                case "?":
                    t += 1
                    p += 1
                    continue
                case "[":
                    if let (matched, next) = matchClass(text[t], pattern, from: p) {
                        if matched {
                            t += 1
                            p = next
                            continue
                        }
                    } else if text[t] == "[" {
                        t += 1
                        p += 1
                        continue
                    }
                default:
                    if pattern[p] == text[t] {
                        t += 1
                        p += 1
                        continue
                    }
                }
            }
            guard let starIndex = star else { return false }
            starText += 1
            t = starText
            p = starIndex + 1
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// A `[...]` class at `start`: whether `scalar` is in it and the index after it; nil if it is not closed
    /// (then `[` is a literal, as in fnmatch).
    private static func matchClass(
        _ scalar: Unicode.Scalar, _ pattern: [Unicode.Scalar], from start: Int
    ) -> (Bool, Int)? {
        var index = start + 1
        var negated = false
        if index < pattern.count, pattern[index] == "!" {
            negated = true
            index += 1
        }
        var matched = false
        var first = true
        while index < pattern.count {
            if pattern[index] == "]", !first { return (matched != negated, index + 1) }
            first = false
            if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                if pattern[index].value <= scalar.value, scalar.value <= pattern[index + 2].value { matched = true }
                index += 3
            } else {
                if pattern[index] == scalar { matched = true }
                index += 1
            }
        }
        return nil
    }
}
