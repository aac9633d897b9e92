import Foundation

/// A fenced code block of a Markdown file: where it is, its info string (```` ```swift file=X ````),
/// the words of a `<!-- swift: WORDS -->` comment on the line before its fence (the checker's
/// directive, which neither GitHub nor DocC shows), and its text with the fence's indentation removed.
struct MarkdownCodeBlock {
    /// The Markdown file, relative to the repository (`README.md`).
    var file: String
    /// The 1-based line of the opening fence.
    var line: Int
    /// Everything after the opening fence's backticks.
    var info: String
    /// The directive's words (empty when there is none).
    var directive: [String]
    /// The lines between the fences.
    var lines: [String]

    /// The info string's first word: the language (`swift`, `sh`, or "").
    var language: String { info.split(separator: " ").first.map(String.init) ?? "" }
    /// The `file=PATH` of the info string, if any (the README's consumer section).
    var fileAttribute: String? {
        info.split(separator: " ").first { $0.hasPrefix("file=") }.map { String($0.dropFirst("file=".count)) }
    }
    /// `FILE:LINE` of the opening fence.
    var place: String { "\(file):\(line)" }
    /// The block's text.
    var text: String { lines.joined(separator: "\n") + "\n" }

    /// The fenced code blocks of `markdown` (backtick fences, as the project's Markdown uses).
    static func blocks(in markdown: String, file: String) -> [MarkdownCodeBlock] {
        let lines = markdown.components(separatedBy: "\n")
        var blocks: [MarkdownCodeBlock] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            guard indent < 4, rest.hasPrefix("```") else {
                index += 1
                continue
            }
            let fence = rest.prefix { $0 == "`" }
            let info = rest.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
            var body: [String] = []
            var end = index + 1
            while end < lines.count {
                let closing = lines[end].trimmingCharacters(in: .whitespaces)
                if closing.hasPrefix(fence), closing.allSatisfy({ $0 == "`" }) { break }
                body.append(String(lines[end].dropFirst(min(indent, lines[end].prefix { $0 == " " }.count))))
                end += 1
            }
            blocks.append(
                MarkdownCodeBlock(
                    file: file, line: index + 1, info: info, directive: directive(before: index, in: lines),
                    lines: body))
            index = end + 1
        }
        return blocks
    }

    /// The words of `<!-- swift: WORDS -->` on the last non-blank line before `index`.
    private static func directive(before index: Int, in lines: [String]) -> [String] {
        guard
            let previous = lines[..<index].last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })?
                .trimmingCharacters(in: .whitespaces),
            previous.hasPrefix("<!-- swift:"), previous.hasSuffix("-->")
        else { return [] }
        return previous.dropFirst("<!-- swift:".count).dropLast("-->".count).split(separator: " ").map(String.init)
    }
}
