import Foundation
import XCTest
@testable import VersionStampKit

/// Mode selection, errors, and writing: atomic, only when the content changes, permissions kept,
/// nothing written when any file fails.
final class StampPlanTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try PlistTestSupport.temporaryDirectory(self)
    }

    private func write(_ name: String, _ text: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    private let versionPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>Version</key>
        \t<string>r0000</string>
        </dict>
        </plist>

        """

    private let infoPlist = """
        <plist version="1.0">
        <dict>
        \t<key>CFBundleVersion</key>
        \t<string>1</string>
        \t<key>Label</key>
        \t<string>x</string>
        </dict>
        </plist>

        """

    func testAutomaticModePicksPlaceholderOrBundleVersion() throws {
        let version = try write("version.plist", versionPlist)
        let info = try write("Info.plist", infoPlist)
        let plan = StampPlan(
            options: StampOptions(plists: [version.path, info.path]), context: PlistTestSupport.context("77"))
        XCTAssertEqual(plan.errors, [])
        XCTAssertEqual(plan.updates.map { $0.changes.map(\.keyPath.description) }, [["Version"], ["CFBundleVersion"]])
        XCTAssertEqual(
            plan.reportLines(written: true),
            [
                "\(version.path):5: Version: \"r0000\" → \"77\"",
                "\(info.path):4: CFBundleVersion: \"1\" → \"77\"",
            ])
    }

    func testNeitherPlaceholderNorKeyNamesBoth() throws {
        let plist = try write("Other.plist", "<plist><dict><key>Name</key><string>x</string></dict></plist>")
        let plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("1"))
        XCTAssertEqual(plan.errors.count, 1)
        let message = plan.errors.first?.description ?? ""
        XCTAssertTrue(message.hasPrefix("\(plist.path): error: "), message)
        XCTAssertTrue(message.contains("'r0000'") && message.contains("'CFBundleVersion'"), message)
    }

    func testExplicitPlaceholderMissingIsAnError() throws {
        let plist = try write("Info.plist", infoPlist)
        let plan = StampPlan(
            options: StampOptions(plists: [plist.path], mode: .placeholder("@VERSION@")),
            context: PlistTestSupport.context("1"))
        XCTAssertEqual(plan.errors.map(\.message), ["no string contains the placeholder '@VERSION@'"])
        XCTAssertEqual(plan.errors.map(\.code), [.noPlaceholder])
    }

    func testMissingKeyNamesTheKeyPath() throws {
        let plist = try write("Info.plist", infoPlist)
        let plan = StampPlan(
            options: StampOptions(plists: [plist.path], mode: .keys([try PlistKeyPath(parsing: "Parent:Child")])),
            context: PlistTestSupport.context("1"))
        XCTAssertEqual(
            plan.errors.map(\.description),
            ["\(plist.path):2: error: key 'Parent:Child' not found: the root dict has no key 'Parent'"])
        let notString = StampPlan(
            options: StampOptions(plists: [plist.path], mode: .keys([try PlistKeyPath(parsing: "Label:0")])),
            context: PlistTestSupport.context("1"))
        XCTAssertEqual(
            notString.errors.map(\.message), ["key 'Label:0' not found: the string at 'Label' is not a dict or array"])
        XCTAssertEqual(notString.errors.map(\.code), [.missingKey])
    }

    func testKeyAndPlaceholderTogetherIsAUsageError() {
        XCTAssertThrowsError(try StampOptions.mode(keys: ["CFBundleVersion"], placeholder: "r0000"))
        XCTAssertEqual(try StampOptions.mode(keys: [], placeholder: nil), .automatic(placeholder: "r0000"))
        XCTAssertEqual(
            try StampOptions.mode(keys: ["A:0"], placeholder: nil), .keys([PlistKeyPath(components: ["A", "0"])]))
    }

    func testUnchangedFileIsNotRewritten() throws {
        let plist = try write("Info.plist", infoPlist)
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: plist.path)
        let plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("1"))
        XCTAssertEqual(plan.errors, [])
        XCTAssertFalse(plan.hasChanges)
        try plan.write()
        let modified = try FileManager.default.attributesOfItem(atPath: plist.path)[.modificationDate] as? Date
        XCTAssertEqual(modified, past)
    }

    func testWriteKeepsPermissionsAndLeavesNoTemporaryFile() throws {
        let plist = try write("Info.plist", infoPlist)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: plist.path)
        let plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("2"))
        try plan.write()
        let attributes = try FileManager.default.attributesOfItem(atPath: plist.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o640)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["Info.plist"])
        XCTAssertTrue(String(decoding: try Data(contentsOf: plist), as: UTF8.self).contains("<string>2</string>"))
    }

    func testSymbolicLinkIsFollowed() throws {
        let target = try write("Real.plist", infoPlist)
        let link = directory.appendingPathComponent("Link.plist")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "Real.plist")
        try StampPlan(options: StampOptions(plists: [link.path]), context: PlistTestSupport.context("3")).write()
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "Real.plist")
        XCTAssertTrue(String(decoding: try Data(contentsOf: target), as: UTF8.self).contains("<string>3</string>"))
    }

    func testOneFailingFileMeansNothingIsWritten() throws {
        let good = try write("Info.plist", infoPlist)
        let bad = try write("Bad.plist", "<plist><dict><key>CFBundleVersion</key><string>1</string></dict>")
        let plan = StampPlan(
            options: StampOptions(plists: [good.path, bad.path]), context: PlistTestSupport.context("9"))
        XCTAssertEqual(plan.errors.count, 1)
        XCTAssertEqual(plan.errors.first?.path, bad.path)
        XCTAssertEqual(plan.errors.first?.line, 1)
        XCTAssertEqual(try Data(contentsOf: good), Data(infoPlist.utf8))
    }

    func testMissingFileIsAnError() {
        let plan = StampPlan(
            options: StampOptions(plists: [directory.appendingPathComponent("nope.plist").path]),
            context: PlistTestSupport.context("9"))
        XCTAssertEqual(plan.errors.map(\.message), ["no such file"])
        XCTAssertEqual(plan.errors.map(\.code), [.fileAccess])
    }

    func testCharacterReferenceOnlyDifferenceIsNoChange() throws {
        // The decoded value already equals the new one: nothing to write, the reference stays.
        let plist = try write(
            "Info.plist", "<plist><dict><key>CFBundleVersion</key><string>&#52;2</string></dict></plist>")
        let plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("42"))
        XCTAssertEqual(plan.errors, [])
        XCTAssertFalse(plan.hasChanges)
    }

    func testXcodeEnvironmentNamesTheInfoPlist() throws {
        XCTAssertEqual(
            try StampOptions.resolvePlists(
                [], generatingFiles: false,
                environment: [
                    "BUILT_PRODUCTS_DIR": "/build/Products/Debug", "INFOPLIST_PATH": "Foods.app/Info.plist",
                ]), ["/build/Products/Debug/Foods.app/Info.plist"])
        XCTAssertEqual(
            try StampOptions.resolvePlists(
                ["a.plist"], generatingFiles: false,
                environment: [
                    "BUILT_PRODUCTS_DIR": "/b", "INFOPLIST_PATH": "I.plist",
                ]), ["a.plist"])
        XCTAssertEqual(
            try StampOptions.resolvePlists(
                [], generatingFiles: true,
                environment: [
                    "BUILT_PRODUCTS_DIR": "/b", "INFOPLIST_PATH": "I.plist",
                ]), [])
        XCTAssertThrowsError(
            try StampOptions.resolvePlists([], generatingFiles: false, environment: ["BUILT_PRODUCTS_DIR": "/b"])
        ) { error in
            XCTAssertTrue("\(error)".contains("BUILT_PRODUCTS_DIR and INFOPLIST_PATH"), "\(error)")
        }
    }

    // MARK: --output

    /// `--output DEST`: the source is read, never written; DEST gets exactly what stamping the
    /// source in place would give, in placeholder and key mode, and is written only when its
    /// content changes.
    func testOutputLeavesTheSourceUntouched() throws {
        let built = directory.appendingPathComponent("built")
        try FileManager.default.createDirectory(at: built, withIntermediateDirectories: false)
        for (name, text, mode) in [
            ("version.plist", versionPlist, StampMode.placeholder("r0000")),
            ("Info.plist", infoPlist, .keys([.bundleVersion])),
        ] {
            let source = try write(name, text)
            let output = built.appendingPathComponent(name)
            let plan = StampPlan(
                options: StampOptions(plists: [source.path], output: output.path, mode: mode),
                context: PlistTestSupport.context("12"))
            XCTAssertEqual(plan.errors, [])
            XCTAssertEqual(plan.updates.map(\.path), [output.path])
            XCTAssertEqual(plan.updates.map(\.source), [source.path])
            let inPlace = StampPlan(
                options: StampOptions(plists: [source.path], mode: mode), context: PlistTestSupport.context("12"))
            XCTAssertEqual(plan.updates.map(\.contents), inPlace.updates.map(\.contents))
            XCTAssertEqual(plan.reportLines(written: true).map { $0.hasPrefix(output.path + ":") }, [true], name)
            try plan.write()
            XCTAssertEqual(try Data(contentsOf: source), Data(text.utf8), "the source is untouched")
            XCTAssertEqual(try Data(contentsOf: output), inPlace.updates.first?.contents)
            // DEST already holds the stamp: nothing to write; another version rewrites it.
            XCTAssertFalse(
                StampPlan(
                    options: StampOptions(plists: [source.path], output: output.path, mode: mode),
                    context: PlistTestSupport.context("12")
                ).hasChanges)
            let next = StampPlan(
                options: StampOptions(plists: [source.path], output: output.path, mode: mode),
                context: PlistTestSupport.context("13"))
            XCTAssertEqual(next.updates.count, 1)
        }
    }

    /// A source whose strings already hold the version still gives DEST its copy; the report
    /// then names the file, as for a generated file.
    func testOutputOfAnAlreadyStampedSourceIsACopy() throws {
        let source = try write("Info.plist", infoPlist)
        let output = directory.appendingPathComponent("Out.plist")
        let plan = StampPlan(
            options: StampOptions(plists: [source.path], output: output.path), context: PlistTestSupport.context("1"))
        XCTAssertEqual(plan.errors, [])
        XCTAssertEqual(plan.reportLines(written: false), ["\(output.path): would be updated"])
        try plan.write()
        XCTAssertEqual(try Data(contentsOf: output), Data(infoPlist.utf8))
    }

    func testOutputTakesExactlyOnePlist() throws {
        let one = try write("version.plist", versionPlist)
        let two = try write("Info.plist", infoPlist)
        let output = directory.appendingPathComponent("Out.plist").path
        for plists in [[one.path, two.path], []] {
            let plan = StampPlan(
                options: StampOptions(plists: plists, output: output), context: PlistTestSupport.context("1"))
            XCTAssertEqual(plan.errors.map(\.code), [.usage])
            XCTAssertTrue(
                plan.errors.first?.message.contains("--output takes exactly one PLIST") ?? false, "\(plan.errors)")
            XCTAssertTrue(plan.updates.isEmpty)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testDryRunSummarySaysNothingWasWritten() throws {
        let version = try write("version.plist", versionPlist)
        let info = try write("Info.plist", infoPlist)
        XCTAssertEqual(
            StampPlan(options: StampOptions(plists: [version.path, info.path]), context: PlistTestSupport.context("7"))
                .dryRunSummary,
            "dry run: nothing written (2 files would change)")
        XCTAssertEqual(
            StampPlan(options: StampOptions(plists: [version.path]), context: PlistTestSupport.context("7"))
                .dryRunSummary,
            "dry run: nothing written (1 file would change)")
        XCTAssertEqual(
            StampPlan(options: StampOptions(plists: [info.path]), context: PlistTestSupport.context("1")).dryRunSummary,
            "dry run: nothing written (no file would change)")
    }
}
