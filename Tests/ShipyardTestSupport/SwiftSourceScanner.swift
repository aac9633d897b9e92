import Foundation

/// Reads Shipyard's own sources for the checks that no compiler on Linux makes: which
/// `sqlite3_*` functions a target calls, whether a call sits under an `#available` guard, what
/// `Package.swift` declares, how a library's folders use each other. Comments and string literals are blanked first (string
/// interpolations stay code), so a function named in a comment or a message is not a call.
public struct SwiftSourceScanner {
    /// One source file: its path relative to the package root, and its text with comments and
    /// string literals replaced by spaces (newlines kept, so offsets and lines are the file's).
    public struct File {
        public let path: String
        public let code: [UInt8]

        /// A file at `path` whose comment- and string-blanked text is `code`.
        public init(path: String, code: [UInt8]) {
            self.path = path
            self.code = code
        }

        /// The 1-based line of a byte offset.
        public func line(of offset: Int) -> Int {
            code[..<offset].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        }

        /// `offset` as `PATH:LINE`.
        public func location(_ offset: Int) -> String { "\(path):\(line(of: offset))" }
    }

    /// The package root: two levels above this file (Tests/ShipyardTestSupport).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every file with one of `extensions` under `directory` (relative to the root), sorted;
    /// hidden directories (a nested package's `.build`, its checkouts of other packages) are
    /// not the project's sources and are left out.
    public static func files(under directory: String, extensions: Set<String> = ["swift"], root: URL = packageRoot)
        throws -> [File]
    {
        let base = root.appendingPathComponent(directory)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return try walker.compactMap { $0 as? String }
            .filter { extensions.contains(($0 as NSString).pathExtension) }
            .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
            .sorted()
            .map { relative in
                let bytes = try [UInt8](Data(contentsOf: base.appendingPathComponent(relative)))
                return File(path: directory + "/" + relative, code: codeOnly(bytes))
            }
    }

    /// The raw text of a file relative to the root.
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: Blanking comments and strings

    private enum Mode {
        case code(parens: Int)
        case string(multiline: Bool)
    }

    /// `source` with comments and string literals (but not their interpolations) replaced by
    /// spaces; newlines are kept.
    public static func codeOnly(_ source: [UInt8]) -> [UInt8] {
        var out = source
        var stack: [Mode] = [.code(parens: 0)]
        var i = 0
        func blank(_ from: Int, _ to: Int) {
            for k in from..<min(to, out.count) where out[k] != 10 { out[k] = 32 }
        }
        func at(_ k: Int, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return k + bytes.count <= source.count && Array(source[k..<(k + bytes.count)]) == bytes
        }
        while i < source.count {
            switch stack[stack.count - 1] {
            case .code(let parens):
                if at(i, "//") {
                    var end = i
                    while end < source.count, source[end] != 10 { end += 1 }
                    blank(i, end); i = end
                } else if at(i, "/*") {
                    var depth = 0, end = i
                    repeat {
                        if at(end, "/*") {
                            depth += 1; end += 2
                        } else if at(end, "*/") {
                            depth -= 1; end += 2
                        } else {
                            end += 1
                        }
                    } while depth > 0 && end < source.count
                    blank(i, end); i = end
                } else if at(i, "\"\"\"") {
                    stack.append(.string(multiline: true)); blank(i, i + 3); i += 3
                } else if source[i] == UInt8(ascii: "\"") {
                    stack.append(.string(multiline: false)); blank(i, i + 1); i += 1
                } else if source[i] == UInt8(ascii: "(") {
                    stack[stack.count - 1] = .code(parens: parens + 1); i += 1
                } else if source[i] == UInt8(ascii: ")") {
                    if parens == 0 && stack.count > 1 {
                        stack.removeLast() // the end of an interpolation: back in the string
                        blank(i, i + 1)
                    } else {
                        stack[stack.count - 1] = .code(parens: max(parens - 1, 0))
                    }
                    i += 1
                } else {
                    i += 1
                }
            case .string(let multiline):
                if at(i, "\\(") {
                    stack.append(.code(parens: 0)); blank(i, i + 2); i += 2
                } else if source[i] == UInt8(ascii: "\\") {
                    blank(i, i + 2); i += 2
                } else if multiline ? at(i, "\"\"\"") : source[i] == UInt8(ascii: "\"") {
                    let length = multiline ? 3 : 1
                    blank(i, i + length); i += length
                    stack.removeLast()
                } else {
                    blank(i, i + 1); i += 1
                }
            }
        }
        return out
    }

    // MARK: Calls and guards

    /// Every call `NAME(` of a free function whose name matches `pattern` (an identifier
    /// regex), with its offset.
    public static func calls(matching pattern: String, in file: File) -> [(name: String, offset: Int)] {
        matches(of: "(?<![A-Za-z0-9_.])(\(pattern))\\s*\\(", in: file)
    }

    /// Every match of `regex` in the file's code, as the text of its first group and that
    /// group's offset.
    public static func matches(of regex: String, in file: File) -> [(name: String, offset: Int)] {
        let text = String(decoding: file.code, as: UTF8.self)
        guard let regex = try? NSRegularExpression(pattern: regex) else {
            preconditionFailure("SwiftSourceScanner.matches: not a regular expression: \(regex)")
        }
        // The blanked text is ASCII, so NSRange locations are byte offsets; a first group that
        // took no part in a match names nothing.
        return regex.matches(in: text, range: NSRange(location: 0, length: file.code.count)).compactMap { match in
            Range(match.range(at: 1), in: text).map { (String(text[$0]), match.range(at: 1).location) }
        }
    }

    /// OS versions per platform (`macOS`, `iOS`, `tvOS`, `watchOS`, `visionOS`), as `[13, 0]`.
    public typealias Versions = [String: [Int]]

    /// True when `a` is a version before `b`.
    public static func precedes(_ a: [Int], _ b: [Int]) -> Bool {
        for k in 0..<max(a.count, b.count) {
            let x = k < a.count ? a[k] : 0, y = k < b.count ? b[k] : 0
            if x != y { return x < y }
        }
        return false
    }

    /// The `platforms:` that `Package.swift` declares (`.macOS(.v10_15)`, `.iOS("13.4")`).
    public static func declaredPlatforms() throws -> Versions {
        let raw = try text("Package.swift")
        let code = String(decoding: codeOnly(Array(raw.utf8)), as: UTF8.self)
        guard let start = code.range(of: "platforms:"), let end = code[start.upperBound...].firstIndex(of: "]") else {
            return [:]
        }
        // Offsets are the same in both texts (the manifest is ASCII): read the block raw, so a
        // version written as a string literal is seen too.
        let lower = code.utf8.distance(from: code.startIndex, to: start.upperBound)
        let upper = code.utf8.distance(from: code.startIndex, to: end)
        let block = String(decoding: Array(raw.utf8)[lower..<upper], as: UTF8.self)
        var result: Versions = [:]
        let regex = try NSRegularExpression(
            pattern: #"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*(?:\.v([0-9_]+)|"([0-9.]+)")\s*\)"#)
        for match in regex.matches(in: block, range: NSRange(block.startIndex..., in: block)) {
            guard let platform = Range(match.range(at: 1), in: block).map({ String(block[$0]) }) else { continue }
            let version =
                [2, 3].compactMap { Range(match.range(at: $0), in: block).map { String(block[$0]) } }.first ?? ""
            result[platform] = version.split(whereSeparator: { $0 == "_" || $0 == "." }).compactMap { Int($0) }
        }
        return result
    }

    /// True when the call at `offset` runs only where `#available` has checked every platform
    /// of `required` that is newer than `declared`: inside the braces of an `if #available(...)`,
    /// or after a `guard #available(...) else { ... }`, within the enclosing declaration.
    public static func isGuarded(_ offset: Int, in file: File, required: Versions, declared: Versions) -> Bool {
        let needed = required.filter { platform, version in
            guard let minimum = declared[platform] else { return true }
            return precedes(minimum, version)
        }
        if needed.isEmpty { return true }
        let code = file.code
        let text = String(decoding: code, as: UTF8.self)
        // The enclosing declaration: back to the last `func`, `init`, `deinit`, `var` or `subscript`.
        guard let declaration = try? NSRegularExpression(pattern: #"\b(func|init|deinit|var|subscript)\b"#),
            let available = try? NSRegularExpression(pattern: #"#available\(([^)]*)\)"#)
        else { preconditionFailure("SwiftSourceScanner.isGuarded: its regular expressions do not compile") }
        // The blanked text is ASCII, so byte offsets are NSRange locations.
        let regionStart =
            declaration.matches(in: text, range: NSRange(location: 0, length: offset)).last?.range.location ?? 0
        for match in available.matches(in: text, range: NSRange(location: regionStart, length: offset - regionStart)) {
            guard let spec = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { continue }
            var versions: Versions = [:]
            for part in spec.split(separator: ",") {
                let words = part.split(separator: " ")
                guard words.count == 2 else { continue }
                versions[String(words[0])] = words[1].split(separator: ".").compactMap { Int($0) }
            }
            let covers = needed.allSatisfy { platform, version in
                versions[platform].map { !precedes($0, version) } ?? false
            }
            guard covers else { continue }
            let head = String(decoding: code[..<match.range.location], as: UTF8.self)
            let isGuard = head.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("guard")
            let conditionEnd = match.range.location + match.range.length
            guard let open = firstBrace(in: code, from: conditionEnd), let close = matchingBrace(in: code, open) else {
                continue
            }
            if isGuard {
                // `guard #available(...) else { ... }`: covered after the else block.
                if offset > close { return true }
            } else if offset > open && offset < close {
                return true
            }
        }
        return false
    }

    private static func firstBrace(in code: [UInt8], from start: Int) -> Int? {
        code[start...].firstIndex(of: UInt8(ascii: "{"))
    }

    private static func matchingBrace(in code: [UInt8], _ open: Int) -> Int? {
        var depth = 0
        for k in open..<code.count {
            if code[k] == UInt8(ascii: "{") { depth += 1 }
            if code[k] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { return k } }
        }
        return nil
    }
}
