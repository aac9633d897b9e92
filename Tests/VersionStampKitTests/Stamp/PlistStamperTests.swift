import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// Property: a stamped plist parses (by python3's plistlib, an independent reader) to the
/// original dictionary with only the stamped values changed.
///
/// plistlib writes random property lists (nested dicts and arrays, unicode and markup in
/// strings and keys, integers, reals, booleans, dates, data), XML or binary; XML files are
/// then given CRLF line ends, a BOM or comments at random. Each file is stamped in placeholder
/// mode, key mode on `CFBundleVersion` or key mode on a random nested key path, with a random
/// version. plistlib then checks: the stamped file holds exactly the original values except
/// the stamped strings, which hold the expected new values; binary stays binary, XML stays
/// XML; and for XML with a markup-free version, the bytes are the original's with only the
/// stamped text replaced. Seeded: a failure prints the seed; `PROPERTY_SEED=N` replays it.
final class PropertyStampTests: XCTestCase {
    static let generator = #"""
        import json, plistlib, random, sys, datetime, os
        seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        rng = random.Random(seed)
        PIECES = ["a", "Zz", "42", " ", "\t", "\n", "&", "<", ">", "&amp;", "]]>", "\"", "'", "é", "e\u0301",
                  "中文", "👍🏽", "\u00a0", "-->", "<!--", "r000", "0000", "$(X)", "\\"]
        def text():
            return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 5)))
        def key():
            return rng.choice(["k", "Key", "名前", "a b", "a:b", "x&y", "<k>", "CFBundleName"]) + str(rng.randint(0, 999))
        def value(depth, holders):
            r = rng.random()
            if depth < 3 and r < 0.15:
                d = {}
                for _ in range(rng.randint(0, 4)):
                    d[key()] = value(depth + 1, holders)
                return d
            if depth < 3 and r < 0.25:
                return [value(depth + 1, holders) for _ in range(rng.randint(0, 4))]
            if r < 0.35: return rng.randint(-2**40, 2**40)
            if r < 0.40: return rng.choice([0.5, -1.25, 3.0e10, 1e-5])
            if r < 0.45: return rng.random() < 0.5
            if r < 0.50: return datetime.datetime(2000 + rng.randint(0, 30), 1 + rng.randint(0, 11), 1 + rng.randint(0, 27), rng.randint(0, 23), 0, 0)
            if r < 0.55: return bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 20)))
            s = text()
            if holders is not None and rng.random() < 0.3:
                s = s + "r0000" + text()   # a placeholder inside a string
            return s
        manifest = []
        for i in range(count):
            mode = rng.choice(["placeholder", "key", "nested"])
            root = {key(): value(1, [] if mode == "placeholder" else None) for _ in range(rng.randint(0, 6))}
            entry = {"file": f"p{i}.plist", "mode": mode}
            if mode == "placeholder":
                root["Version" + str(i)] = "build r0000" + rng.choice(["", " (ß)", "<&>"])
                entry["version"] = rng.choice(["r42", "r7M", "1.2.3", "v&<é>", "r0001", ""])
            elif mode == "key":
                root["CFBundleVersion"] = rng.choice(["1", "0.0.1", "", "old"])
                entry["version"] = rng.choice(["42", "1.2", "1.2.3", "100.0.7"])
                entry["key"] = ["CFBundleVersion"]
            else:
                leaf = rng.choice(["old", "", "x&y"])
                path = [key(), key()]
                root[path[0]] = {path[1]: [leaf, 1]}
                entry["key"] = path + ["0"]
                entry["version"] = rng.choice(["9", "1.2.3", "é<&>", "a]]>b"])
            binary = rng.random() < 0.3
            data = plistlib.dumps(root, fmt=plistlib.FMT_BINARY if binary else plistlib.FMT_XML, sort_keys=rng.random() < 0.5)
            if not binary:
                if rng.random() < 0.3: data = data.replace(b"\n", b"\r\n")
                if rng.random() < 0.3: data = b"\xef\xbb\xbf" + data
                if rng.random() < 0.3: data = data.replace(b"<dict>", b"<dict><!-- a comment -->", 1)
            entry["binary"] = binary
            with open(os.path.join(out, entry["file"]), "wb") as f: f.write(data)
            with open(os.path.join(out, entry["file"] + ".orig"), "wb") as f: f.write(data)
            manifest.append(entry)
        print(json.dumps(manifest))
        """#

    static let checker = #"""
        import json, plistlib, sys, os, re
        from xml.sax.saxutils import escape
        out, manifest = sys.argv[1], json.loads(sys.stdin.read())
        problems = []
        def first_difference(a, b):
            i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            return f"first difference at byte {i}: expected {a[max(0, i - 30):i + 30]!r}, got {b[max(0, i - 30):i + 30]!r}"
        def replace_placeholder(x):
            if isinstance(x, dict): return {k: replace_placeholder(v) for k, v in x.items()}
            if isinstance(x, list): return [replace_placeholder(v) for v in x]
            if isinstance(x, str): return x.replace("r0000", VERSION)
            return x
        for e in manifest:
            path = os.path.join(out, e["file"])
            original_bytes = open(path + ".orig", "rb").read()
            stamped_bytes = open(path, "rb").read()
            original = plistlib.loads(original_bytes)
            try:
                stamped = plistlib.loads(stamped_bytes)
            except Exception as err:
                problems.append(f"{e['file']}: stamped file does not parse: {err}"); continue
            VERSION = e["version"]
            if e["mode"] == "placeholder":
                expected = replace_placeholder(original)
            else:
                expected = plistlib.loads(original_bytes)
                node = expected
                for c in e["key"][:-1]: node = node[int(c)] if isinstance(node, list) else node[c]
                last = e["key"][-1]
                if isinstance(node, list): node[int(last)] = VERSION
                else: node[last] = VERSION
            if stamped != expected:
                problems.append(f"{e['file']} ({e['mode']}, version {VERSION!r}): plistlib reads {stamped!r}, expected {expected!r}")
            if stamped_bytes.startswith(b"bplist00") != e["binary"]:
                problems.append(f"{e['file']}: binary {e['binary']} but stamped starts {stamped_bytes[:8]!r}")
            safe = re.fullmatch(r"[A-Za-z0-9.]*", VERSION) is not None
            if not e["binary"] and safe and e["mode"] == "placeholder":
                if stamped_bytes != original_bytes.replace(b"r0000", VERSION.encode()):
                    problems.append(f"{e['file']}: bytes other than the placeholder changed; " + first_difference(original_bytes.replace(b"r0000", VERSION.encode()), stamped_bytes))
            if not e["binary"] and safe and e["mode"] == "key":
                old = original["CFBundleVersion"]
                pattern = re.compile(rb"(<key>CFBundleVersion</key>\s*)(<string>" + re.escape(escape(old).encode()) + rb"</string>|<string/>)")
                want = pattern.sub(lambda m: m.group(1) + b"<string>" + VERSION.encode() + b"</string>", original_bytes, count=1)
                if old == VERSION: want = original_bytes
                if stamped_bytes != want:
                    problems.append(f"{e['file']}: bytes other than the CFBundleVersion value changed; " + first_difference(want, stamped_bytes))
        print(json.dumps(problems))
        """#

    struct Entry: Codable {
        var file: String
        var mode: String
        var version: String
        var key: [String]?
        var binary: Bool
    }

    func testStampedPlistParsesToTheOriginalWithOnlyTheStampedValuesChanged() throws {
        let seed =
            ProcessInfo.processInfo.environment["PROPERTY_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 0..<(1 << 53))
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let count = 120
        let manifestJSON = try PlistTestSupport.python(Self.generator, [String(seed), String(count), directory.path])
        let entries = try JSONDecoder().decode([Entry].self, from: Data(manifestJSON.utf8))
        XCTAssertEqual(entries.count, count)
        let context = "seed \(seed) (PROPERTY_SEED=\(seed) replays it)"

        for entry in entries {
            let path = directory.appendingPathComponent(entry.file).path
            let mode: StampMode =
                entry.mode == "placeholder"
                ? .placeholder("r0000")
                : .keys([PlistKeyPath(components: entry.key ?? [])])
            let plan = StampPlan(
                options: StampOptions(plists: [path], mode: mode), context: PlistTestSupport.context(entry.version))
            guard plan.errors.isEmpty else {
                XCTFail(
                    "\(context): \(entry.file) (\(entry.mode), version \(entry.version.debugDescription)): \(plan.errors)"
                )
                continue
            }
            try plan.write()
        }

        let result = try runChecker(directory: directory, manifest: manifestJSON)
        XCTAssertEqual(result, [], context)
    }

    /// The checker itself notices a wrong value, so the property above cannot pass by accident.
    func testCheckerNoticesAWrongStamp() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let original = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleVersion": "1", "Other": "x"], format: .xml, options: 0)
        try original.write(to: directory.appendingPathComponent("p.plist.orig"))
        let wrong = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleVersion": "43", "Other": "x"], format: .xml, options: 0)
        try wrong.write(to: directory.appendingPathComponent("p.plist"))
        let manifest =
            #"[{"file": "p.plist", "mode": "key", "version": "42", "key": ["CFBundleVersion"], "binary": false}]"#
        let problems = try runChecker(directory: directory, manifest: manifest)
        XCTAssertEqual(problems.count, 2, "\(problems)") // the value, and the bytes
    }

    private func runChecker(directory: URL, manifest: String) throws -> [String] {
        let script = directory.appendingPathComponent("manifest.json")
        try Data(manifest.utf8).write(to: script)
        let checker = try Self.pythonLiteral(Self.checker)
        let output = try PlistTestSupport.python(
            "import sys; sys.stdin = open(sys.argv[2]); sys.argv = [sys.argv[0], sys.argv[1]]; exec(compile(\(checker), 'checker', 'exec'))",
            [directory.path, script.path])
        return try JSONDecoder().decode([String].self, from: Data(output.utf8))
    }

    /// `text` as a Python string literal (JSON string syntax is valid Python).
    static func pythonLiteral(_ text: String) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }
}

/// `--set KEYPATH=FORMAT` (each key its own format, the App Store rule on each) and build-setting
/// references (kept unless `--force`).
final class StampAssignmentTests: XCTestCase {
    private var directory: URL!
    private let revision = RevisionInfo(
        count: 321, sha: String(repeating: "c", count: 40), short: "ccccccc", isDirty: false,
        describe: "v2.1.0-rc1-4-gccccccc", tag: "v2.1.0-rc1", distance: 4,
        branch: "main", commitTime: 1_700_000_000)

    override func setUpWithError() throws {
        directory = try PlistTestSupport.temporaryDirectory(self)
    }

    private func infoPlist(short: String, version: String) throws -> URL {
        try InfoPlistFixture.write(in: directory, short: short, version: version)
    }

    private func plan(_ plist: URL, _ mode: StampMode, offset: Int = 0, force: Bool = false) -> StampPlan {
        StampPlan(
            options: StampOptions(plists: [plist.path], mode: mode, force: force),
            context: VersionContext(revision: revision, override: nil, buildNumber: BuildNumber(offset: offset)))
    }

    func testBothVersionsInOneRun() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let mode = try StampOptions.mode(
            keys: [], assignments: ["CFBundleShortVersionString={version}", "CFBundleVersion={count}"],
            placeholder: nil)
        let stamped = plan(plist, mode, offset: 1000)
        XCTAssertEqual(stamped.errors, [])
        XCTAssertEqual(
            stamped.reportLines(written: true),
            [
                "\(plist.path):5: CFBundleShortVersionString: \"1.0\" → \"2.1.0\"",
                "\(plist.path):7: CFBundleVersion: \"1\" → \"1321\"",
            ])
    }

    func testTheAppStoreRuleIsCheckedOnEachKey() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let mode = StampMode.assignments([
            KeyAssignment(PlistKeyPath(components: ["CFBundleShortVersionString"]), format: "{version}-{prerelease}"),
            KeyAssignment(.bundleVersion, format: "{count}"),
        ])
        let stamped = plan(plist, mode)
        XCTAssertEqual(stamped.errors.map(\.code), [.appStoreRule])
        XCTAssertEqual(stamped.errors.first?.line, 5)
        XCTAssertTrue(stamped.errors.first?.message.contains("\"2.1.0-rc1\"") ?? false, "\(stamped.errors)")
    }

    func testAKeyWithoutItsOwnFormatUsesTheStampsFormat() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let options = StampOptions(
            plists: [plist.path], format: "{distance}",
            mode: .assignments([
                KeyAssignment(.bundleVersion),
                KeyAssignment(PlistKeyPath(components: ["CFBundleShortVersionString"]), format: "{version}"),
            ]))
        let stamped = StampPlan(options: options, context: VersionContext(revision: revision, override: nil))
        XCTAssertEqual(stamped.updates.first?.changes.map(\.newValue), ["4", "2.1.0"])
    }

    func testAnUnknownTokenIsReportedOnceAndNothingIsPlanned() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let options = StampOptions(
            plists: [plist.path, plist.path], mode: .assignments([KeyAssignment(.bundleVersion, format: "{build}")]))
        let stamped = StampPlan(options: options, context: VersionContext(revision: revision, override: nil))
        XCTAssertEqual(stamped.errors.map(\.code), [.invalidFormat])
        XCTAssertEqual(stamped.updates.count, 0)
    }

    func testABuildSettingReferenceIsKeptUnlessForced() throws {
        let plist = try infoPlist(short: "$(MARKETING_VERSION)", version: "$(CURRENT_PROJECT_VERSION)")
        let refused = plan(plist, .keys([.bundleVersion]))
        XCTAssertEqual(refused.errors.map(\.code), [.buildSettingReference])
        let error = refused.errors.first
        XCTAssertEqual(error?.line, 7)
        XCTAssertTrue(error?.message.contains("CURRENT_PROJECT_VERSION") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("--xcconfig") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("--force") ?? false, "\(String(describing: error))")
        XCTAssertEqual(refused.updates.count, 0)

        // Automatic mode lands on CFBundleVersion too; ${NAME} is a reference as well.
        let braces = try infoPlist(short: "1.0", version: "${CURRENT_PROJECT_VERSION}")
        XCTAssertEqual(
            plan(braces, .automatic(placeholder: StampMode.defaultPlaceholder)).errors.map(\.code),
            [.buildSettingReference])

        let forced = plan(plist, .keys([.bundleVersion]), force: true)
        XCTAssertEqual(forced.errors, [])
        XCTAssertEqual(forced.updates.first?.changes.map(\.newValue), ["321"])
    }

    func testTextAroundAReferenceIsAValueOfItsOwn() throws {
        let plist = try infoPlist(short: "1.0", version: "1$(SUFFIX)")
        XCTAssertEqual(plan(plist, .keys([.bundleVersion])).errors, [])
    }
}

final class AppStoreVersionRuleTests: XCTestCase {
    func testValidVersions() {
        for value in ["0", "42", "1.2", "1.2.3", "2024.11.30", "123456789012345678"] {
            XCTAssertTrue(AppStoreVersionRule.isValid(value), value)
        }
    }

    func testInvalidVersions() {
        for value in ["", "r42", "42M", "1.2.3.4", "1..2", ".1", "1.", "-1", "1.2b", "1234567890123456789", " 1", "١٢"]
        {
            XCTAssertFalse(AppStoreVersionRule.isValid(value), value)
        }
    }

    func testViolationQuotesTheRuleOnlyForBundleVersionKeys() {
        XCTAssertNil(AppStoreVersionRule.violation(key: "BuildLabel", value: "r42M"))
        let message = AppStoreVersionRule.violation(key: "CFBundleShortVersionString", value: "1.2.3.4")
        XCTAssertEqual(
            message,
            "CFBundleShortVersionString \"1.2.3.4\" does not follow the App Store rule: one to three period-separated non-negative integers (such as 42, 1.2 or 1.2.3), at most 18 characters"
        )
    }

    func testStampRefusesAViolationInEitherModeAndWritesNothing() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let plist = directory.appendingPathComponent("Info.plist")
        let original = Data(
            """
            <plist version="1.0">
            <dict>
            <key>CFBundleVersion</key>
            <string>r0000</string>
            <key>CFBundleShortVersionString</key>
            <string>1.0</string>
            </dict>
            </plist>
            """.utf8)
        try original.write(to: plist)
        // Placeholder mode (automatic): r0000 becomes r12M in CFBundleVersion.
        var plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("r12M"))
        XCTAssertEqual(
            plan.errors.map(\.description),
            [
                "\(plist.path):4: error: CFBundleVersion \"r12M\" does not follow the App Store rule: \(AppStoreVersionRule.description)"
            ])
        // Key mode.
        plan = StampPlan(
            options: StampOptions(
                plists: [plist.path], mode: .keys([PlistKeyPath(components: ["CFBundleShortVersionString"])])),
            context: PlistTestSupport.context("1.2.3.4"))
        XCTAssertEqual(plan.errors.count, 1)
        XCTAssertEqual(plan.errors.first?.line, 6)
        XCTAssertTrue(plan.errors.first?.message.contains("App Store rule") ?? false)
        XCTAssertEqual(plan.errors.first?.code, .appStoreRule)
        XCTAssertEqual(try Data(contentsOf: plist), original)
    }
}

/// Which plist values are wholly an Xcode build-setting reference.
final class BuildSettingReferenceTests: XCTestCase {
    func testWholeReferences() {
        XCTAssertEqual(BuildSettingReference.settingName(in: "$(CURRENT_PROJECT_VERSION)"), "CURRENT_PROJECT_VERSION")
        XCTAssertEqual(BuildSettingReference.settingName(in: "${MARKETING_VERSION}"), "MARKETING_VERSION")
        XCTAssertEqual(BuildSettingReference.settingName(in: "$(PRODUCT_NAME:rfc1034identifier)"), "PRODUCT_NAME")
        XCTAssertEqual(BuildSettingReference.settingName(in: "$(_X1)"), "_X1")
    }

    func testOtherValuesAreNotReferences() {
        for value in [
            "", "1", "$(", "$()", "$(1X)", "$(A", "$(A}", "${A)", "x$(A)", "$(A)x", "$(A)$(B)",
            "$(A $(B))", "$A", "(A)", "$(A-B)", "$(A.B)",
        ] {
            XCTAssertNil(BuildSettingReference.settingName(in: value), value)
        }
    }
}
