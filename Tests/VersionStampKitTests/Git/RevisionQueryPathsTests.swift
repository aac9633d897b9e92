import Foundation
import XCTest
@testable import VersionStampKit

/// `--path` values become paths relative to the work tree's root, taken from `--repo` (or the
/// current directory) as `git -C DIR rev-list HEAD -- PATH` reads them; outside is an error.
final class RevisionQueryPathsTests: XCTestCase {
    private var repo: RevisionTestRepository!

    override func setUpWithError() throws {
        repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "app/ios/a.txt")
        try repo.commit("b", file: "lib/b.txt")
    }

    private func resolved(_ paths: [String], from start: URL) throws -> [String] {
        try RevisionReader(discoveringFrom: start.path, environment: repo.environment,
                           query: RevisionQuery(paths: paths)).query.paths
    }

    private func assertOutside(_ path: String, from start: URL, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try resolved([path], from: start), path, file: file, line: line) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .pathOutsideRepository, file: file, line: line)
            XCTAssertEqual((error as? VersionStampError)?.path, path, file: file, line: line)
            XCTAssertTrue((error as? VersionStampError)?.message.contains("outside the repository") ?? false, file: file, line: line)
        }
    }

    func testRelativeToTheStartingDirectory() throws {
        XCTAssertEqual(try resolved(["app", "lib/"], from: repo.root), ["app", "lib"])
        let ios = repo.root.appendingPathComponent("app/ios")
        XCTAssertEqual(try resolved([".", "..", "../../lib", "./x/../y"], from: ios), ["app/ios", "app", "lib", "app/ios/y"])
    }

    func testTheRootItselfIsDot() throws {
        XCTAssertEqual(try resolved([".", repo.root.path, "app/.."], from: repo.root), [".", ".", "."])
    }

    func testAbsolutePathsAndPathsThatDoNotExist() throws {
        let absolute = repo.root.appendingPathComponent("app/ios").path
        XCTAssertEqual(try resolved([absolute, "gone/dir"], from: repo.root), ["app/ios", "gone/dir"])
    }

    func testOutsideTheWorkTreeIsAnError() {
        assertOutside("..", from: repo.root)
        assertOutside("../../..", from: repo.root.appendingPathComponent("app"))
        assertOutside("/", from: repo.root)
        assertOutside(repo.home.path, from: repo.root)
        assertOutside(".git/..//../x", from: repo.root)
    }

    /// A symbolic link in the work tree is a path of its own to git, wherever it points; a
    /// starting directory reached through a link is resolved like the work tree is.
    func testSymbolicLinks() throws {
        try FileManager.default.createSymbolicLink(atPath: repo.root.appendingPathComponent("out").path,
                                                   withDestinationPath: repo.home.path)
        XCTAssertEqual(try resolved(["out"], from: repo.root), ["out"])
        let alias = repo.home.appendingPathComponent("alias")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: repo.root.appendingPathComponent("app").path)
        XCTAssertEqual(try resolved(["ios"], from: alias), ["app/ios"])
    }

    func testNoPathsNeedNoWorkTree() throws {
        XCTAssertEqual(try resolved([], from: repo.root), [])
    }
}
