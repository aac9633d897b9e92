import Foundation
import XCTest

/// `Sources/LayeredDatabase/PrivacyInfo.xcprivacy` declares every category of Apple's
/// required-reason APIs that the targets an app links (LayeredDatabase, SQLiteCore,
/// FileSystemKit) call, each with a reason: Xcode refuses an app (ITMS-91053) whose code calls
/// one undeclared.
final class PrivacyManifestTests: LayeredDatabaseTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The targets whose code is in an app that links LayeredDatabase (as AppleAvailabilityTests).
    static let appLinked = ["Sources/LayeredDatabase", "Sources/SQLiteCore", "Sources/FileSystemKit"]

    /// Apple's categories ("Describing use of required reason API") and the calls in each that
    /// Swift code can make; a word must be called (`name(`) or used as a key to count.
    static let categories: [(category: String, pattern: String)] = [
        (
            "NSPrivacyAccessedAPICategoryFileTimestamp",
            #"\b(stat|lstat|fstat|fstatat|getattrlist|getattrlistbulk|fgetattrlist|getattrlistat)\s*\(|\.(creationDate|modificationDate|fileModificationDate|contentModificationDateKey|creationDateKey)\b|\bst_(mtim|mtimespec|ctim|ctimespec|atim|atimespec|birthtimespec)\b"#
        ),
        ("NSPrivacyAccessedAPICategorySystemBootTime", #"\b(systemUptime|mach_absolute_time)\b"#),
        (
            "NSPrivacyAccessedAPICategoryDiskSpace",
            #"\b(statfs|statvfs|fstatfs|fstatvfs)\s*\(|\b(volumeAvailableCapacity\w*|volumeTotalCapacityKey|systemFreeSize|systemSize)\b"#
        ),
        ("NSPrivacyAccessedAPICategoryActiveKeyboards", #"\bactiveInputModes\b"#),
        ("NSPrivacyAccessedAPICategoryUserDefaults", #"\b(UserDefaults|NSUserDefaults)\b"#),
    ]

    /// The categories the app-linked sources use, with a file that uses each.
    static func usedCategories() throws -> [String: String] {
        var used: [String: String] = [:]
        for directory in appLinked {
            let root = packageRoot.appendingPathComponent(directory)
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in files where file.pathExtension == "swift" {
                // Code only: `//` comments (documentation included) name calls they do not make.
                let code = try String(contentsOf: file, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false
                )
                .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
                .joined(separator: "\n")
                for (category, pattern) in categories where code.range(of: pattern, options: .regularExpression) != nil
                {
                    used[category] = used[category] ?? "\(directory)/\(file.lastPathComponent)"
                }
            }
        }
        return used
    }

    /// The manifest's categories with their reasons.
    static func declaredCategories() throws -> [String: [String]] {
        let data = try Data(
            contentsOf: packageRoot.appendingPathComponent("Sources/LayeredDatabase/PrivacyInfo.xcprivacy"))
        let plist = try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        XCTAssertEqual(plist["NSPrivacyTracking"] as? Bool, false)
        var declared: [String: [String]] = [:]
        for entry in plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? [] {
            let category = try XCTUnwrap(entry["NSPrivacyAccessedAPIType"] as? String)
            declared[category] = entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []
        }
        return declared
    }

    func testEveryCategoryTheAppLinkedSourcesUseIsDeclaredWithAReason() throws {
        let used = try Self.usedCategories(), declared = try Self.declaredCategories()
        XCTAssertNotNil(
            used["NSPrivacyAccessedAPICategoryFileTimestamp"],
            "stat() of the bundled file and of downloads: the scan must see it")
        for (category, file) in used {
            XCTAssertFalse(
                declared[category]?.isEmpty ?? true,
                "\(file) uses \(category), which PrivacyInfo.xcprivacy does not declare with a reason")
        }
        for category in declared.keys {
            XCTAssertNotNil(
                used[category], "PrivacyInfo.xcprivacy declares \(category), which no app-linked source uses")
        }
        // C617.1: metadata of files inside the app's container, never shown to the user.
        XCTAssertEqual(declared["NSPrivacyAccessedAPICategoryFileTimestamp"], ["C617.1"])
    }

    /// The manifest is a resource of the target, so SwiftPM and Xcode put it in the bundle.
    func testTheManifestIsATargetResource() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(
            manifest.contains(#"resources: [.copy("PrivacyInfo.xcprivacy")]"#),
            "Package.swift: LayeredDatabase's resources")
    }
}
