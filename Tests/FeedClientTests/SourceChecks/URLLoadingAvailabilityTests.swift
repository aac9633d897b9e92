import Foundation
import ShipyardTestSupport
import XCTest

/// FeedClient's availability table (``AppleURLLoadingAvailability``, and the DocC article that
/// shows it) is true to the sources: every Swift file under Sources/FeedClient and under
/// Sources/HTTPTransport (its HTTP client, where URLSession is called) is read, whatever its
/// folder, so a file added later is checked as soon as it exists. On Linux `#available` is
/// always true, so only this reading catches a missing guard before a Mac build does.
final class URLLoadingAvailabilityTests: XCTestCase {
    static let article = "Sources/FeedClient/FeedClient.docc/AppleAPIAvailability.md"

    static func feedClientFiles() throws -> [SwiftSourceScanner.File] {
        try SwiftSourceScanner.files(under: "Sources/FeedClient")
            + SwiftSourceScanner.files(under: "Sources/HTTPTransport")
    }

    /// The offsets where `pattern` matches in `file`.
    static func offsets(of pattern: String, in file: SwiftSourceScanner.File) -> [Int] {
        let text = String(decoding: file.code, as: UTF8.self)
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(location: 0, length: file.code.count)).map(\.range.location)
    }

    func testEveryURLLoadingAPIFeedClientCallsIsInTheTable() throws {
        var problems: [String] = []
        for file in try Self.feedClientFiles() {
            let listed = Set(
                AppleURLLoadingAvailability.apis.flatMap { Self.offsets(of: $0.pattern, in: file) })
            for (name, pattern) in AppleURLLoadingAvailability.recognised {
                for offset in Self.offsets(of: pattern, in: file) where !listed.contains(offset) {
                    problems.append(
                        "\(file.location(offset)): \(name) is not in AppleURLLoadingAvailability.apis (nor in \(Self.article)): add its row with Apple's versions"
                    )
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testEveryAPIInTheTableIsCalledAndGuardedWhereNewer() throws {
        let declared = try SwiftSourceScanner.declaredPlatforms()
        let files = try Self.feedClientFiles()
        var problems: [String] = []
        for api in AppleURLLoadingAvailability.apis {
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
                problems.append("\(api.name) is in the table but FeedClient never calls it: remove its row")
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// The article's table lists exactly the rows of ``AppleURLLoadingAvailability``, with the
    /// same versions.
    func testTheArticleShowsTheTable() throws {
        func text(_ version: [Int]?) -> String { (version ?? [1, 0]).map(String.init).joined(separator: ".") }
        var expected: [String: String] = [:]
        for api in AppleURLLoadingAvailability.apis {
            let versions = ["iOS", "macOS", "tvOS", "watchOS"].map { text(api.versions[$0]) } + ["1.0"]
            expected[api.name] = versions.joined(separator: " ")
        }
        var shown: [String: String] = [:]
        let row = try NSRegularExpression(
            pattern: #"^\| `([^`]+)` \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|"#)
        for line in try SwiftSourceScanner.text(Self.article).split(separator: "\n").map(String.init) {
            guard let match = row.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
            let cells = (1...6).map { (line as NSString).substring(with: match.range(at: $0)) }
            shown[cells[0]] = cells[1...].joined(separator: " ")
        }
        XCTAssertEqual(shown, expected, "\(Self.article) and AppleURLLoadingAvailability differ")
    }

    /// The scan recognises what it exists for: a newer call unguarded, and an unlisted one.
    func testTheScanCatchesAnUnguardedNewerCallAndAnUnlistedOne() throws {
        let file = SwiftSourceScanner.File(
            path: "Snippet.swift",
            code: SwiftSourceScanner.codeOnly(
                Array(
                    """
                    func fetch(_ session: URLSession, _ request: URLRequest) async throws {
                        let (bytes, _) = try await session.bytes(for: request)
                        if #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *) {
                            _ = try await session.data(for: request)
                        }
                    }
                    """.utf8)))
        let declared = try SwiftSourceScanner.declaredPlatforms()
        let newer = AppleURLLoadingAvailability.asyncSession
        let bytes = try XCTUnwrap(Self.offsets(of: #"\.bytes\(\s*for:"#, in: file).first)
        let data = try XCTUnwrap(Self.offsets(of: #"\.data\(\s*for:"#, in: file).first)
        XCTAssertFalse(SwiftSourceScanner.isGuarded(bytes, in: file, required: newer, declared: declared))
        XCTAssertTrue(SwiftSourceScanner.isGuarded(data, in: file, required: newer, declared: declared))
        let listed = Set(AppleURLLoadingAvailability.apis.flatMap { Self.offsets(of: $0.pattern, in: file) })
        XCTAssertFalse(listed.contains(bytes), "bytes(for:) has no row: the scan must report it")
    }
}
