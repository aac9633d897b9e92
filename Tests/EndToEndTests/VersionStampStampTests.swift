import Foundation
import ShipyardTestSupport
import XCTest

/// End-to-end tests of `versionstamp stamp`, with `VERSIONSTAMP_VERSION` standing in for the
/// repository and python3's plistlib as the oracle.
final class VersionStampStampTests: XCTestCase {
    private var directory: URL!
    /// Xcode's variables are removed so the machine's environment cannot change a test.
    private let xcodeVariables = ["BUILT_PRODUCTS_DIR", "INFOPLIST_PATH"]

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("VersionStampKitTests/Fixtures")

    private let infoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleShortVersionString</key>
        \t<string>2.1</string>
        \t<key>CFBundleVersion</key>
        \t<string>1</string>
        </dict>
        </plist>

        """

    override func setUpWithError() throws {
        let temporary = try TemporaryDirectory("versionstamp-stamp", removedAfter: self)
        addTeardownBlock { withExtendedLifetime(temporary) {} }
        directory = temporary.url
    }

    private func write(_ name: String, _ text: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func stamp(_ arguments: [String], version: String? = "42", environment: [String: String] = [:]) throws
        -> ProcessResult
    {
        var env = environment
        if let version { env["VERSIONSTAMP_VERSION"] = version }
        return try BuiltProducts.run(
            "versionstamp", ["stamp"] + arguments, in: directory, environment: env,
            removing: xcodeVariables + (version == nil ? ["VERSIONSTAMP_VERSION"] : []))
    }

    private func python(_ script: String, _ arguments: [String]) throws -> String {
        let result = try Oracle.python3.run(["-c", script] + arguments)
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText
    }

    private func modificationDate(_ url: URL) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    }

    private func setOldModificationDate(_ url: URL) throws -> Date {
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: url.path)
        return past
    }

    // MARK: Stamping

    func testGoldenInfoPlistStampedInPlace() throws {
        let plist = directory.appendingPathComponent("Info.plist")
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("typical-info.input.plist"), to: plist)
        let result = try stamp(["Info.plist"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "Info.plist:20: CFBundleVersion: \"1\" → \"42\"\n")
        XCTAssertEqual(
            try Data(contentsOf: plist),
            try Data(contentsOf: Self.fixtures.appendingPathComponent("typical-info.expected.plist")))
    }

    func testPlaceholderModeLikeTheOriginalScript() throws {
        let plist = try write(
            "version.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>Version</key>
            \t<string>r0000</string>
            \t<key>About</key>
            \t<string>Foods r0000 &amp; friends</string>
            </dict>
            </plist>

            """)
        let result = try stamp(["version.plist", "--quiet"], version: "r1234M")
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "")
        let values = try python(
            """
            import plistlib, sys, json
            print(json.dumps(plistlib.load(open(sys.argv[1], 'rb')), sort_keys=True))
            """, [plist.path])
        XCTAssertEqual(values, "{\"About\": \"Foods r1234M & friends\", \"Version\": \"r1234M\"}\n")
    }

    func testBinaryPlistStaysBinary() throws {
        let plist = directory.appendingPathComponent("Info.plist")
        _ = try python(
            """
            import plistlib, sys
            plistlib.dump({'CFBundleVersion': '1', 'Count': 3, 'On': True, 'Items': ['a', 'b']}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)
            """, [plist.path])
        let result = try stamp(["Info.plist", "--key", "CFBundleVersion", "--key", "Items:1"], version: "7")
        XCTAssertEqual(result.status, 0, result.stderrText)
        let check = try python(
            """
            import plistlib, sys
            data = open(sys.argv[1], 'rb').read()
            print(data[:8].decode(), plistlib.loads(data) == {'CFBundleVersion': '7', 'Count': 3, 'On': True, 'Items': ['a', '7']})
            """, [plist.path])
        XCTAssertEqual(check, "bplist00 True\n")
    }

    func testUnchangedFileIsNotRewritten() throws {
        let plist = try write("Info.plist", infoPlist)
        XCTAssertEqual(try stamp(["Info.plist"]).status, 0)
        let past = try setOldModificationDate(plist)
        let again = try stamp(["Info.plist"])
        XCTAssertEqual(again.status, 0, again.stderrText)
        XCTAssertEqual(again.stdoutText, "")
        XCTAssertEqual(try modificationDate(plist), past)
    }

    func testCheckExitCodes() throws {
        let plist = try write("Info.plist", infoPlist)
        let past = try setOldModificationDate(plist)
        let wouldChange = try stamp(["--check", "Info.plist"])
        XCTAssertEqual(wouldChange.status, 1, wouldChange.stderrText)
        XCTAssertEqual(wouldChange.stdoutText, "Info.plist:8: CFBundleVersion: \"1\" → \"42\"\n")
        XCTAssertEqual(try Data(contentsOf: plist), Data(infoPlist.utf8))
        XCTAssertEqual(try modificationDate(plist), past)

        XCTAssertEqual(try stamp(["Info.plist"]).status, 0)
        XCTAssertEqual(try stamp(["--check", "Info.plist"]).status, 0)

        _ = try write("Broken.plist", "<plist><dict>")
        let error = try stamp(["--check", "Broken.plist"])
        XCTAssertEqual(error.status, 2)
        XCTAssertTrue(error.stderrText.hasPrefix("Broken.plist:1: error: malformed XML"), error.stderrText)
    }

    func testDryRunPrintsTheChangeAndWritesNothing() throws {
        let plist = try write("Info.plist", infoPlist)
        let result = try stamp(
            ["--dry-run", "--key", "CFBundleVersion", "--key", "CFBundleShortVersionString", "Info.plist"],
            version: "3.2")
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(
            result.stdoutText,
            """
            Info.plist:8: CFBundleVersion: "1" → "3.2"
            Info.plist:6: CFBundleShortVersionString: "2.1" → "3.2"
            dry run: nothing written (1 file would change)

            """)
        XCTAssertEqual(try Data(contentsOf: plist), Data(infoPlist.utf8))
        // A real run prints the same change lines, without the dry run's last line.
        let real = try stamp(
            ["--key", "CFBundleVersion", "--key", "CFBundleShortVersionString", "Info.plist"], version: "3.2")
        XCTAssertEqual(real.status, 0, real.stderrText)
        XCTAssertEqual(real.stdoutText + "dry run: nothing written (1 file would change)\n", result.stdoutText)
        let quiet = try stamp(["--dry-run", "--quiet", "Info.plist"], version: "3.2")
        XCTAssertEqual(quiet.stdoutText, "dry run: nothing written (no file would change)\n")
    }

    // MARK: Errors

    func testAppStoreRuleViolation() throws {
        let plist = try write(
            "Info.plist", infoPlist.replacingOccurrences(of: "<string>1</string>", with: "<string>r0000</string>"))
        let original = try Data(contentsOf: plist)
        let result = try stamp(["Info.plist"], version: "r42M")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderrText,
            "Info.plist:8: error: CFBundleVersion \"r42M\" does not follow the App Store rule: one to three period-separated non-negative integers (such as 42, 1.2 or 1.2.3), at most 18 characters\n"
        )
        XCTAssertEqual(try Data(contentsOf: plist), original)
        let long = try stamp(["Info.plist", "--key", "CFBundleShortVersionString"], version: "1234567890.12345678")
        XCTAssertEqual(long.status, 1)
        XCTAssertTrue(long.stderrText.contains("at most 18 characters"), long.stderrText)
        XCTAssertEqual(try stamp(["--check", "Info.plist"], version: "1.2.3.4").status, 2)
    }

    func testEntitiesAreRefusedAndTheSecretNeverRead() throws {
        let secret = try write("secret.txt", "SECRET-e2e-91c4")
        var declarations = "<!ENTITY a \"lol\">"
        for (level, name) in ["b", "c", "d", "e", "f", "g", "h", "i", "j"].enumerated() {
            let previous = ["a", "b", "c", "d", "e", "f", "g", "h", "i"][level]
            declarations += "<!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        let cases = [
            ("external.plist", "<!DOCTYPE plist [ <!ENTITY xxe SYSTEM \"file://\(secret.path)\"> ]>", "&xxe;", "xxe"),
            ("laughs.plist", "<!DOCTYPE plist [ \(declarations) ]>", "&j;", "a"),
        ]
        for (name, doctype, reference, entity) in cases {
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                \(doctype)
                <plist version="1.0"><dict><key>CFBundleVersion</key><string>\(reference)</string></dict></plist>

                """
            let plist = try write(name, text)
            let result = try stamp([name, "--key", "CFBundleVersion"])
            XCTAssertEqual(result.status, 1, name)
            XCTAssertEqual(
                result.stderrText,
                "\(name):2: error: the plist declares or uses the entity '\(entity)'; entities are refused (versionstamp never expands entities, reads other files or the network)\n"
            )
            XCTAssertFalse((result.stdoutText + result.stderrText).contains("SECRET-e2e"), name)
            XCTAssertEqual(try Data(contentsOf: plist), Data(text.utf8), name)
        }
    }

    func testMalformedXMLNamesTheLineAndLeavesTheFile() throws {
        let text = infoPlist.replacingOccurrences(of: "<string>1</string>", with: "<string>1</strin>")
        let plist = try write("Info.plist", text)
        let result = try stamp(["Info.plist"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.hasPrefix("Info.plist:8: error: malformed XML: "), result.stderrText)
        XCTAssertEqual(try Data(contentsOf: plist), Data(text.utf8))
    }

    func testMissingKeyAndNeitherPlaceholderNorKey() throws {
        _ = try write("Info.plist", infoPlist)
        let missing = try stamp(["Info.plist", "--key", "Parent:Child:0"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(
            missing.stderrText,
            "Info.plist:4: error: key 'Parent:Child:0' not found: the root dict has no key 'Parent'\n")

        _ = try write("Other.plist", "<plist><dict><key>Name</key><string>x</string></dict></plist>")
        let neither = try stamp(["Other.plist"])
        XCTAssertEqual(neither.status, 1)
        XCTAssertTrue(
            neither.stderrText.hasPrefix("Other.plist: error: contains neither the placeholder 'r0000'"),
            neither.stderrText)
        XCTAssertTrue(neither.stderrText.contains("nor the key 'CFBundleVersion'"), neither.stderrText)
    }

    func testOneBadFileStopsAllWrites() throws {
        let good = try write("Info.plist", infoPlist)
        _ = try write("Other.plist", "<plist><dict/></plist>")
        let result = try stamp(["Info.plist", "Other.plist"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(try Data(contentsOf: good), Data(infoPlist.utf8))
    }

    func testUsageErrors() throws {
        let both = try stamp(["Info.plist", "--key", "CFBundleVersion", "--placeholder", "r0000"])
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(both.stderrText.contains("--key and --placeholder cannot be used together"), both.stderrText)
        let nothing = try stamp([])
        XCTAssertEqual(nothing.status, 64)
        XCTAssertTrue(nothing.stderrText.contains("BUILT_PRODUCTS_DIR and INFOPLIST_PATH"), nothing.stderrText)
    }

    func testXcodeEnvironmentVariables() throws {
        let products = directory.appendingPathComponent("Build/Products/Debug")
        try FileManager.default.createDirectory(
            at: products.appendingPathComponent("Foods.app"), withIntermediateDirectories: true)
        let plist = products.appendingPathComponent("Foods.app/Info.plist")
        try Data(infoPlist.utf8).write(to: plist)
        let result = try stamp(
            [], environment: ["BUILT_PRODUCTS_DIR": products.path, "INFOPLIST_PATH": "Foods.app/Info.plist"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let value = try python(
            "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))['CFBundleVersion'])", [plist.path])
        XCTAssertEqual(value, "42\n")
    }

    func testMissingRepositoryWithoutOverrideIsAnError() throws {
        _ = try write("Info.plist", infoPlist)
        let result = try stamp(["Info.plist", "--repo", directory.path], version: nil)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("error: "), result.stderrText)
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("Info.plist")), Data(infoPlist.utf8))
    }

    // MARK: Generated files

    func testGeneratedFilesWithoutPlist() throws {
        let result = try stamp(
            ["--swift", "BuildVersion.swift", "--json", "version.json", "--xcconfig", "Version.xcconfig"],
            version: "5.0-src")
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(
            result.stdoutText, "BuildVersion.swift: updated\nversion.json: updated\nVersion.xcconfig: updated\n")
        let swift = directory.appendingPathComponent("BuildVersion.swift")
        let swiftc = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/swiftc" }.first(where: FileManager.default.isExecutableFile(atPath:))
        XCTAssertNotNil(swiftc, "swiftc is not on PATH: the toolchain that runs the tests provides it")
        if let swiftc {
            let parse = try ProcessRunner.run(swiftc, ["-parse", swift.path])
            XCTAssertEqual(parse.status, 0, parse.stderrText)
        }
        XCTAssertTrue(
            try String(contentsOf: swift, encoding: .utf8).contains("public static let version: String = \"5.0-src\""))
        let json = try python(
            "import json, sys; v = json.load(open(sys.argv[1])); print(v['version'], v['count'], v['dirty'])",
            [directory.appendingPathComponent("version.json").path])
        XCTAssertEqual(json, "5.0-src None None\n")
        let xcconfig = try String(contentsOf: directory.appendingPathComponent("Version.xcconfig"), encoding: .utf8)
        XCTAssertTrue(xcconfig.contains("\nSHIPYARD_BUILD_VERSION = 5.0-src\n"), xcconfig)

        var dates: [Date] = []
        for name in ["BuildVersion.swift", "version.json", "Version.xcconfig"] {
            dates.append(try setOldModificationDate(directory.appendingPathComponent(name)))
        }
        let again = try stamp(
            ["--swift", "BuildVersion.swift", "--json", "version.json", "--xcconfig", "Version.xcconfig"],
            version: "5.0-src")
        XCTAssertEqual(again.status, 0, again.stderrText)
        XCTAssertEqual(again.stdoutText, "")
        for (name, date) in zip(["BuildVersion.swift", "version.json", "Version.xcconfig"], dates) {
            XCTAssertEqual(try modificationDate(directory.appendingPathComponent(name)), date, name)
        }
        let check = try stamp(["--check", "--json", "version.json"], version: "5.1")
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stdoutText, "version.json: would be updated\n")
    }

    func testHelpDocumentsTheChoices() throws {
        let help = try BuiltProducts.run("versionstamp", ["stamp", "--help"])
        XCTAssertEqual(help.status, 0)
        for phrase in [
            "r{count}{dirty}", "CFBundleVersion", "BUILT_PRODUCTS_DIR", "public enum BuildVersion",
            "SHIPYARD_BUILD_VERSION", "VERSIONSTAMP_VERSION", "App Store", "--check", "keys are never created",
        ] {
            XCTAssertTrue(help.stdoutText.contains(phrase), phrase)
        }
    }
}
