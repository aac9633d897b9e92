import Foundation
import ShipyardTestSupport
import XCTest

/// SyncClient's availability table (``AppleSyncAPIAvailability``, and the DocC article that
/// shows it) is true to the sources: every Swift file under Sources/SyncClient is read, so a
/// file added later is checked as soon as it exists. On Linux `#available` is always true, so
/// only this reading catches a missing guard before a Mac build does.
final class URLLoadingAvailabilityTests: XCTestCase {
    static let article = "Sources/SyncClient/SyncClient.docc/AppleAPIAvailability.md"

    static func files() throws -> [SwiftSourceScanner.File] {
        try SwiftSourceScanner.files(under: "Sources/SyncClient")
    }

    static func offsets(of pattern: String, in file: SwiftSourceScanner.File) -> [Int] {
        let text = String(decoding: file.code, as: UTF8.self)
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(location: 0, length: file.code.count)).map(\.range.location)
    }

    func testEveryAppleAPISyncClientCallsIsInTheTable() throws {
        var problems: [String] = []
        for file in try Self.files() {
            let listed = Set(AppleSyncAPIAvailability.apis.flatMap { Self.offsets(of: $0.pattern, in: file) })
            for (name, pattern) in AppleSyncAPIAvailability.recognised {
                for offset in Self.offsets(of: pattern, in: file) where !listed.contains(offset) {
                    problems.append(
                        "\(file.location(offset)): \(name) is not in AppleSyncAPIAvailability.apis (nor in \(Self.article)): add its row with Apple's versions"
                    )
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testEveryAPIInTheTableIsCalledAndGuardedWhereNewer() throws {
        let declared = try SwiftSourceScanner.declaredPlatforms()
        let files = try Self.files()
        var problems: [String] = []
        for api in AppleSyncAPIAvailability.apis {
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
                problems.append("\(api.name) is in the table but SyncClient never calls it: remove its row")
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testTheArticleShowsTheTable() throws {
        func text(_ version: [Int]?) -> String { (version ?? [1, 0]).map(String.init).joined(separator: ".") }
        var expected: [String: String] = [:]
        for api in AppleSyncAPIAvailability.apis {
            expected[api.name] = (["iOS", "macOS", "tvOS", "watchOS"].map { text(api.versions[$0]) } + ["1.0"])
                .joined(separator: " ")
        }
        var shown: [String: String] = [:]
        let row = try NSRegularExpression(
            pattern: #"^\| `([^`]+)` \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|"#)
        for line in try SwiftSourceScanner.text(Self.article).split(separator: "\n").map(String.init) {
            guard let match = row.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
            let cells = (1...6).map { (line as NSString).substring(with: match.range(at: $0)) }
            shown[cells[0]] = cells[1...].joined(separator: " ")
        }
        XCTAssertEqual(shown, expected, "\(Self.article) and AppleSyncAPIAvailability differ")
    }
}
