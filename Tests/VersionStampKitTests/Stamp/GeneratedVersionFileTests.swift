import Foundation
import ShipyardTestSupport
import XCTest
@testable import VersionStampKit

/// `--swift`, `--json` and `--xcconfig` outputs: content, validity (swiftc, python's json) and
/// no rewrite when unchanged.
final class StampGeneratedFileTests: XCTestCase {
    private let revision = RevisionInfo(
        count: 1234, sha: "0123456789abcdef0123456789abcdef01234567", short: "0123456",
        isDirty: true, describe: "v1.2-5-g0123456-dirty", tag: "v1.2", distance: 5,
        branch: "feature/a\"b", commitTime: 1_700_000_000)

    /// The Swift file compiles, holds the values (escaping included) and has no optional
    /// field: interpolating any field prints the value, in a git build and in a
    /// VERSIONSTAMP_VERSION build alike (which says `hasRevision = false` and holds 0, "", false).
    func testSwiftSourceTypeChecksAndHoldsTheValues() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let source = try GeneratedVersionFile.swift.contents(
            version: "1234\\\"x", context: VersionContext(revision: revision, override: nil))
        let overridden = try GeneratedVersionFile.swift.contents(
            version: "3.0-src", context: PlistTestSupport.context("3.0-src"))
        XCTAssertTrue(overridden.contains("public static let version: String = \"3.0-src\""), overridden)
        XCTAssertTrue(overridden.contains("public static let hasRevision: Bool = false"), overridden)
        XCTAssertTrue(overridden.contains("public static let count: Int = 0"), overridden)
        XCTAssertTrue(overridden.contains("public static let sha: String = \"\""), overridden)
        XCTAssertFalse(source.contains("? = ") || overridden.contains("? = "), "no optional type:\n\(source)")

        // Compile the file with a main that interpolates every field and run it.
        guard
            let swiftc = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
                .map({ "\($0)/swiftc" }).first(where: FileManager.default.isExecutableFile(atPath:))
        else {
            return XCTFail("swiftc is not on PATH: the toolchain that runs the tests provides it")
        }
        let file = directory.appendingPathComponent("BuildVersion.swift")
        let main = directory.appendingPathComponent("main.swift")
        try Data(
            """
            print("\\(BuildVersion.hasRevision)|\\(BuildVersion.version)|\\(BuildVersion.count)|\\(BuildVersion.sha)|\\(BuildVersion.short)|\\(BuildVersion.describe)|\\(BuildVersion.tag)|\\(BuildVersion.distance)|\\(BuildVersion.branch)|\\(BuildVersion.dirty)|\\(BuildVersion.date)|\\(BuildVersion.timestamp)|\\(BuildVersion.release)|\\(BuildVersion.prerelease)")
            """.utf8
        ).write(to: main)
        let executable = directory.appendingPathComponent("printer").path
        func printed(_ contents: String) throws -> String {
            try Data(contents.utf8).write(to: file)
            let compile = try ProcessRunner.run(
                swiftc, ["-Onone", "-warnings-as-errors", file.path, main.path, "-o", executable])
            XCTAssertEqual(compile.status, 0, compile.stderrText)
            return try ProcessRunner.run(executable, []).stdoutText
        }
        XCTAssertEqual(
            try printed(source),
            "true|1234\\\"x|1234|0123456789abcdef0123456789abcdef01234567|0123456|v1.2-5-g0123456-dirty|v1.2|5|feature/a\"b|true|20231114|1700000000|1.2|\n"
        )
        XCTAssertEqual(try printed(overridden), "false|3.0-src|0|||||0||false||0||\n")
    }

    /// JSON written by JSONEncoder: python's json reads the fields back (null where a value is
    /// unknown or absent), keys sorted, the same bytes every time.
    func testJSONParsesToTheFields() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let file = directory.appendingPathComponent("version.json")
        let text = try GeneratedVersionFile.json.contents(
            version: "r1234M", context: VersionContext(revision: revision, override: nil))
        XCTAssertEqual(
            text,
            try GeneratedVersionFile.json.contents(
                version: "r1234M", context: VersionContext(revision: revision, override: nil)))
        try Data(text.utf8).write(to: file)
        let output = try PlistTestSupport.python(
            """
            import json, sys
            text = open(sys.argv[1]).read()
            v = json.loads(text)
            assert list(v) == sorted(v), list(v)
            assert text.endswith("}\\n") and "\\\\/" not in text, text
            print(json.dumps(v, sort_keys=True))
            """, [file.path])
        XCTAssertEqual(
            output.trimmingCharacters(in: .newlines),
            """
            {"branch": "feature/a\\"b", "count": 1234, "date": "20231114", "describe": "v1.2-5-g0123456-dirty", "dirty": true, \
            "distance": 5, "prerelease": "", "release": "1.2", "sha": "0123456789abcdef0123456789abcdef01234567", \
            "short": "0123456", "tag": "v1.2", "timestamp": 1700000000, "version": "r1234M"}
            """)
        try Data(
            try GeneratedVersionFile.json.contents(version: "9\n/", context: PlistTestSupport.context("9\n/")).utf8
        ).write(to: file)
        let overridden = try PlistTestSupport.python(
            "import json, sys; v = json.load(open(sys.argv[1])); print(repr(v['version']), v['count'], v['sha'], v['tag'], v['dirty'], len(v))",
            [file.path])
        XCTAssertEqual(overridden, "'9\\n/' None None None None 13\n")
        var untagged = revision
        untagged.tag = nil
        try Data(
            try GeneratedVersionFile.json.contents(
                version: "x", context: VersionContext(revision: untagged, override: nil)
            ).utf8
        ).write(to: file)
        let noTag = try PlistTestSupport.python(
            "import json, sys; v = json.load(open(sys.argv[1])); print(v['tag'], v['release'], v['prerelease'], v['count'])",
            [file.path])
        XCTAssertEqual(noTag, "None None None 1234\n")
    }

    func testXcconfigSettings() throws {
        let text = try GeneratedVersionFile.xcconfig.contents(
            version: "1234", context: VersionContext(revision: revision, override: nil))
        let settings = text.split(separator: "\n").filter { !$0.hasPrefix("//") }
        XCTAssertEqual(
            settings,
            [
                "SHIPYARD_BUILD_VERSION = 1234",
                "SHIPYARD_BUILD_COUNT = 1234",
                "SHIPYARD_BUILD_SHA = 0123456789abcdef0123456789abcdef01234567",
                "SHIPYARD_BUILD_SHORT = 0123456",
                "SHIPYARD_BUILD_DESCRIBE = v1.2-5-g0123456-dirty",
                "SHIPYARD_BUILD_TAG = v1.2",
                "SHIPYARD_BUILD_DISTANCE = 5",
                "SHIPYARD_BUILD_BRANCH = feature/a\"b",
                "SHIPYARD_BUILD_DIRTY = YES",
                "SHIPYARD_BUILD_DATE = 20231114",
                "SHIPYARD_BUILD_TIMESTAMP = 1700000000",
                "SHIPYARD_BUILD_RELEASE = 1.2",
                "SHIPYARD_BUILD_PRERELEASE = ",
                "CURRENT_PROJECT_VERSION = 1234",
                "MARKETING_VERSION = 1.2",
            ])
        let overridden = try GeneratedVersionFile.xcconfig.contents(
            version: "http://x///y", context: PlistTestSupport.context("http://x///y"))
        XCTAssertTrue(overridden.contains("SHIPYARD_BUILD_VERSION = http:/$()/x/$()/$()/y\n"), overridden)
        XCTAssertTrue(overridden.contains("SHIPYARD_BUILD_COUNT = \n"), overridden)
        XCTAssertThrowsError(
            try GeneratedVersionFile.xcconfig.contents(version: "a\nb", context: PlistTestSupport.context("a\nb")))
    }

    /// Xcode's own settings: the build number (offset applied) and the tag's version; without
    /// a tag MARKETING_VERSION is left to the project, with VERSIONSTAMP_VERSION the build
    /// number is that value.
    func testXcconfigWritesXcodesVersionSettings() throws {
        var prerelease = revision
        prerelease.tag = "release-3.1-rc2"
        let offset = VersionContext(revision: prerelease, override: nil, buildNumber: BuildNumber(offset: 5000))
        let text = try GeneratedVersionFile.xcconfig.contents(version: "x", context: offset)
        XCTAssertTrue(text.hasSuffix("\nCURRENT_PROJECT_VERSION = 6234\nMARKETING_VERSION = 3.1\n"), text)
        XCTAssertTrue(text.contains("\nSHIPYARD_BUILD_COUNT = 6234\n"), text)

        var untagged = revision
        untagged.tag = nil
        let plain = try GeneratedVersionFile.xcconfig.contents(
            version: "x", context: VersionContext(revision: untagged, override: nil))
        XCTAssertTrue(plain.contains("\nCURRENT_PROJECT_VERSION = 1234\n"), plain)
        XCTAssertFalse(plain.contains("\nMARKETING_VERSION"), plain)

        let overridden = try GeneratedVersionFile.xcconfig.contents(
            version: "77", context: PlistTestSupport.context("77"))
        XCTAssertTrue(overridden.contains("\nCURRENT_PROJECT_VERSION = 77\n"), overridden)
        XCTAssertFalse(overridden.contains("\nMARKETING_VERSION"), overridden)
    }

    func testOutputsWrittenOnlyWhenChanged() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let swift = directory.appendingPathComponent("BuildVersion.swift").path
        let json = directory.appendingPathComponent("version.json").path
        let xcconfig = directory.appendingPathComponent("Version.xcconfig").path
        let options = StampOptions(plists: [], generatedFiles: [.swift: swift, .json: json, .xcconfig: xcconfig])
        let first = StampPlan(options: options, context: PlistTestSupport.context("5"))
        XCTAssertEqual(first.errors, [])
        XCTAssertEqual(first.updates.map(\.path), [swift, json, xcconfig])
        XCTAssertEqual(
            first.reportLines(written: false),
            ["\(swift): would be updated", "\(json): would be updated", "\(xcconfig): would be updated"])
        try first.write()
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        for path in [swift, json, xcconfig] {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: path)
        }
        let second = StampPlan(options: options, context: PlistTestSupport.context("5"))
        XCTAssertFalse(second.hasChanges)
        try second.write()
        for path in [swift, json, xcconfig] {
            XCTAssertEqual(
                try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, past, path)
        }
        let third = StampPlan(options: options, context: PlistTestSupport.context("6"))
        XCTAssertEqual(third.updates.count, 3)
    }

    /// swift-driver keeps a source's modification time to the second and skips a source whose
    /// time equals the recorded one: `BuildVersion.swift` rewritten within the second of the
    /// version last compiled stayed compiled in its old form (.ci/run-consumer, 2 runs in 4).
    func testARewrittenFileIsModifiedInALaterSecondThanTheVersionItReplaces() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let swift = directory.appendingPathComponent("BuildVersion.swift").path
        let options = StampOptions(plists: [], generatedFiles: [.swift: swift])
        try StampPlan(options: options, context: PlistTestSupport.context("5")).write()
        let second = Date().timeIntervalSince1970.rounded(.down)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: second + 0.5)], ofItemAtPath: swift)
        try StampPlan(options: options, context: PlistTestSupport.context("6")).write()
        let rewritten = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: swift)[.modificationDate] as? Date)
        XCTAssertGreaterThanOrEqual(rewritten.timeIntervalSince1970, second + 1, "in the old version's second")
        XCTAssertTrue(try String(contentsOfFile: swift, encoding: .utf8).contains("6"))
    }
}
