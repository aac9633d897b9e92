import Foundation

/// A library's table of the Apple APIs it calls, with the first OS release of each, and the
/// three checks that keep it true: every recognised API the sources use has a row, every row is
/// used and called under `#available` where it is newer than the package's platforms, and the
/// DocC article shows exactly the rows. FeedClient's and SyncClient's tests each hold one.
/// On Linux `#available` is always true, so only this reading catches a missing guard before a
/// Mac build does.
public struct AppleAPIAvailabilityTable {
    /// One API: its name as Apple's documentation writes it, how a use of it reads in Swift
    /// source (a regex over code with comments and strings blanked), and its first releases.
    public struct API {
        public let name: String
        public let pattern: String
        public let versions: SwiftSourceScanner.Versions

        public init(name: String, pattern: String, versions: SwiftSourceScanner.Versions) {
            self.name = name
            self.pattern = pattern
            self.versions = versions
        }
    }

    /// The library, as messages name it ("FeedClient").
    public let library: String
    /// The table's name in the tests, as messages name it.
    public let name: String
    /// The rows.
    public let apis: [API]
    /// Newer API a change is likely to reach for: a use of one without a row is reported.
    public let recognised: [(name: String, pattern: String)]
    /// The folders whose Swift files are read, from the package root (a file added later is
    /// read as soon as it exists).
    public let sources: [String]
    /// The DocC article that shows the table, from the package root.
    public let article: String

    public init(
        library: String, name: String, apis: [API], recognised: [(name: String, pattern: String)],
        sources: [String], article: String
    ) {
        self.library = library
        self.name = name
        self.apis = apis
        self.recognised = recognised
        self.sources = sources
        self.article = article
    }

    /// The offsets where `pattern` matches in `file`.
    public static func offsets(of pattern: String, in file: SwiftSourceScanner.File) -> [Int] {
        let text = String(decoding: file.code, as: UTF8.self)
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(location: 0, length: file.code.count)).map(\.range.location)
    }

    /// Every Swift file of ``sources``.
    public func files() throws -> [SwiftSourceScanner.File] {
        try sources.flatMap { try SwiftSourceScanner.files(under: $0) }
    }

    /// Each use of a recognised API that no row matches, as `path:line: what to do`.
    public func unlistedUses() throws -> [String] {
        var problems: [String] = []
        for file in try files() {
            let listed = Set(apis.flatMap { Self.offsets(of: $0.pattern, in: file) })
            for (api, pattern) in recognised {
                for offset in Self.offsets(of: pattern, in: file) where !listed.contains(offset) {
                    problems.append(
                        "\(file.location(offset)): \(api) is not in \(name).apis (nor in \(article)): add its row with Apple's versions"
                    )
                }
            }
        }
        return problems
    }

    /// Each row used without the `#available` its versions need, and each row never used.
    public func unguardedOrUnusedRows() throws -> [String] {
        let declared = try SwiftSourceScanner.declaredPlatforms()
        let files = try files()
        var problems: [String] = []
        for api in apis {
            var uses = 0
            for file in files {
                for offset in Self.offsets(of: api.pattern, in: file) {
                    uses += 1
                    if !SwiftSourceScanner.isGuarded(offset, in: file, required: api.versions, declared: declared) {
                        problems.append(
                            "\(file.location(offset)): \(api.name) needs \(api.versions): call it under #available")
                    }
                }
            }
            if uses == 0 {
                problems.append("\(api.name) is in the table but \(library) never calls it: remove its row")
            }
        }
        return problems
    }

    /// The article's table rows and the rows it should show: API name → "iOS macOS tvOS
    /// watchOS visionOS" versions.
    public func articleRows() throws -> (shown: [String: String], expected: [String: String]) {
        func text(_ version: [Int]?) -> String { (version ?? [1, 0]).map(String.init).joined(separator: ".") }
        var expected: [String: String] = [:]
        for api in apis {
            expected[api.name] = (["iOS", "macOS", "tvOS", "watchOS"].map { text(api.versions[$0]) } + ["1.0"])
                .joined(separator: " ")
        }
        var shown: [String: String] = [:]
        let row = try NSRegularExpression(
            pattern: #"^\| `([^`]+)` \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|"#)
        for line in try SwiftSourceScanner.text(article).split(separator: "\n").map(String.init) {
            guard let match = row.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
            let cells = (1...6).map { (line as NSString).substring(with: match.range(at: $0)) }
            shown[cells[0]] = cells[1...].joined(separator: " ")
        }
        return (shown, expected)
    }
}
