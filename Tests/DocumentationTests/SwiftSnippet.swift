import Foundation

/// What the checker type-checks: one ```` ```swift ```` block of a Markdown file, or a chain of
/// them (a block whose directive says `continues` joins the one before it), in the context its
/// directive names. CONTRIBUTING.md ("Swift in the documentation") documents the directives:
///
/// - none: a whole `main.swift` of a SwiftPM target with resources (so `Bundle.module` exists),
///   importing any of the package's library modules;
/// - `continues`: the rest of the file the previous ```` ```swift ```` block of the same Markdown
///   file began;
/// - `manifest`: a `Package.swift`; `manifest dependencies`, `manifest targets` and `manifest
///   arguments`: a part of one, written into `Package(name:dependencies: [ ])`,
///   `Package(name:targets: [ ])` or `Package(name: …, )`;
/// - `build-version`: in a target that `VersionConstantsBuildToolPlugin` generates
///   `BuildVersion.swift` into (versionstamp generates it for the check);
/// - `apple`: Apple-only code, checked against the stubs of the Apple frameworks it imports
///   (`Tests/DocumentationTests/AppleStubs/`), which repeat the SDK's declarations;
/// - `excerpt PATH`: lines of PATH, a file a CI step builds and runs (`Examples/`): every
///   line of the block must be in PATH, in the same order; nothing is compiled.
struct SwiftSnippet {
    /// How the source is compiled.
    enum Context: Equatable {
        /// A `main.swift` (a library file when it declares `@main`).
        case program
        /// A manifest: the text as it is (`nil`), or written into one of `Package(…)`'s arguments.
        case manifest(part: String?)
        /// Lines of a file of the repository.
        case excerpt(path: String)
    }

    /// The words a directive may hold.
    static let directiveWords: Set<String> = [
        "continues", "manifest", "dependencies", "targets", "arguments", "build-version", "apple", "excerpt",
    ]

    var context: Context
    /// The blocks, in order (more than one for a chain).
    var blocks: [MarkdownCodeBlock]
    var needsBuildVersion = false
    var apple = false

    /// `FILE:LINE` of the first block.
    var place: String { blocks[0].place }

    /// The source to compile and, for each of its lines, the Markdown line it came from.
    var source: (text: String, origins: [String]) {
        var lines: [String] = []
        var origins: [String] = []
        func add(_ text: String, origin: String) {
            lines.append(text)
            origins.append(origin)
        }
        switch context {
        case .manifest(let part?):
            add("import PackageDescription", origin: place)
            add("let package = Package(", origin: place)
            add("    name: \"Documentation\",", origin: place)
            if part != "arguments" { add("    \(part): [", origin: place) }
        default:
            break
        }
        for block in blocks {
            for (offset, line) in block.lines.enumerated() {
                add(line, origin: "\(block.file):\(block.line + 1 + offset)")
            }
        }
        if case .manifest(let part?) = context {
            if part != "arguments" { add("    ]", origin: place) }
            add(")", origin: place)
        }
        return (lines.joined(separator: "\n") + "\n", origins)
    }

    /// The snippets of `blocks` (one Markdown file's, in order), or the problems of their directives.
    static func snippets(of blocks: [MarkdownCodeBlock]) -> (snippets: [SwiftSnippet], problems: [String]) {
        var snippets: [SwiftSnippet] = []
        var problems: [String] = []
        for block in blocks where block.language == "swift" {
            let words = block.directive
            let named = words.firstIndex(of: "excerpt").map { words.index(after: $0) }
            if let unknown = words.indices.first(where: { !directiveWords.contains(words[$0]) && $0 != named })
                .map({ words[$0] })
            {
                problems.append("\(block.place): unknown directive word '\(unknown)' (CONTRIBUTING.md lists them)")
                continue
            }
            if words.contains("continues") {
                guard let last = snippets.indices.last, snippets[last].context == .program else {
                    problems.append("\(block.place): 'continues', but no Swift program before it in \(block.file)")
                    continue
                }
                snippets[last].blocks.append(block)
                if words.contains("build-version") { snippets[last].needsBuildVersion = true }
                if words.contains("apple") { snippets[last].apple = true }
                continue
            }
            var context = Context.program
            if let index = words.firstIndex(of: "excerpt") {
                guard index + 1 < words.count else {
                    problems.append("\(block.place): 'excerpt' names no file")
                    continue
                }
                context = .excerpt(path: words[index + 1])
            } else if words.contains("manifest") {
                context = .manifest(part: words.first { ["dependencies", "targets", "arguments"].contains($0) })
            }
            var snippet = SwiftSnippet(context: context, blocks: [block])
            snippet.needsBuildVersion = words.contains("build-version")
            snippet.apple = words.contains("apple")
            snippets.append(snippet)
        }
        return (snippets, problems)
    }

    /// For an excerpt: what is wrong (a line of the block not found in the file after the lines
    /// before it), or nil.
    func excerptProblem(repository: URL) -> String? {
        guard case .excerpt(let path) = context else { return nil }
        guard let text = try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8) else {
            return "\(place): the excerpt's file \(path) cannot be read"
        }
        let fileLines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var next = 0
        for block in blocks {
            for (offset, line) in block.lines.enumerated() {
                let wanted = line.trimmingCharacters(in: .whitespaces)
                if wanted.isEmpty { continue }
                guard let found = fileLines[next...].firstIndex(of: wanted) else {
                    return "\(block.file):\(block.line + 1 + offset): `\(wanted)` is not in \(path) "
                        + "(after the lines before it): the excerpt must be the file's own lines"
                }
                next = found + 1
            }
        }
        return nil
    }
}
