import ShipyardTestSupport
import XCTest

/// What `Package.swift` must say for an Apple-platform build, read from the manifest since no
/// Mac builds here.
final class ManifestTests: XCTestCase {
    /// The OS versions apps still support (as GRDB declares them): without `platforms:` SwiftPM
    /// assumes macOS 10.13 / iOS 12, where APIs the package calls are availability errors.
    func testPlatformsAreDeclared() throws {
        let declared = try SwiftSourceScanner.declaredPlatforms()
        XCTAssertEqual(declared, ["iOS": [13], "macOS": [10, 15], "tvOS": [13], "watchOS": [7], "visionOS": [1]])
    }

    /// CSQLite links the system `sqlite3` by its module map alone: with `pkgConfig` (and a
    /// Homebrew provider) SwiftPM adds Homebrew's keg-only sqlite flags when they exist, and
    /// Xcode applies them to every platform, so an iOS build would point at a macOS dylib.
    func testCSQLiteUsesNoPkgConfig() throws {
        let manifest = try SwiftSourceScanner.text("Package.swift")
        let start = try XCTUnwrap(manifest.range(of: #"name: "CSQLite""#), "no CSQLite target in Package.swift")
        let block = manifest[start.lowerBound...].prefix { $0 != ")" }
        XCTAssertFalse(block.contains("pkgConfig"), "CSQLite declares pkgConfig:\n\(block)")
        XCTAssertFalse(block.contains(".brew"), "CSQLite declares a Homebrew provider:\n\(block)")
        let moduleMap = try SwiftSourceScanner.text("Sources/CSQLite/module.modulemap")
        XCTAssertTrue(moduleMap.contains(#"link "sqlite3""#), moduleMap)
    }
}
