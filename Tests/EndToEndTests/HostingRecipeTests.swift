import Foundation
import ShipyardTestSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The nginx recipe of "Hosting a feed", as written: its `rsync` upload, run line by line into a
/// directory nginx serves with the recipe's `location` blocks, never makes a document visible
/// before what it names (targets first, `timestamp.json` last); every kind of file gets the
/// `Cache-Control` the article's table gives it; and a device updates through it. The other
/// recipes upload in the same order (their commands are read, not run: no S3 here).
final class HostingRecipeTests: XCTestCase {
    static let article = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FeedClient/FeedClient.docc/HostingAFeed.md")

    /// The bodies of the article's code blocks whose info string is `language`.
    static func blocks(_ language: String) throws -> [String] {
        let text = try String(contentsOf: article, encoding: .utf8)
        return text.components(separatedBy: "```\(language)\n").dropFirst().map {
            String($0[..<($0.range(of: "```")?.lowerBound ?? $0.endIndex)])
        }
    }

    /// What the article's table says each kind of file may be cached for.
    static func expectedCacheControl(_ name: String) -> String {
        name == "timestamp.json" || name == "root.json" ? "no-cache" : "public, max-age=31536000, immutable"
    }

    func testTheNginxRecipeUploadsInOrderAndServesEachFileWithItsHeader() async throws {
        let workspace = try FeedWorkspace(self)
        try workspace.publishTwoReleases()
        let www = workspace.directory.url("www")
        try FileManager.default.createDirectory(
            at: www.appendingPathComponent("feed"), withIntermediateDirectories: true)

        let upload = try XCTUnwrap(try Self.blocks("sh").first { $0.contains("rsync") }, "the article's rsync upload")
        let commands = upload.split(separator: "\n").map(String.init).filter { $0.hasPrefix("rsync ") }
        XCTAssertEqual(commands.count, 3, upload)
        let published = workspace.tree("feed")
        let targets = Set(published.keys.filter { $0.hasPrefix("targets/") })
        for (index, command) in commands.enumerated() {
            let local = command.replacingOccurrences(of: "host:/var/www/", with: www.path + "/")
            let result = try ProcessRunner.run("/bin/sh", ["-c", local], in: workspace.directory.url)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderrText)")
            let hosted = Set(DirectoryTree.files(under: www.appendingPathComponent("feed").path).keys)
            if hosted.contains(where: { $0.hasSuffix(".json") }) {
                XCTAssertTrue(targets.isSubset(of: hosted), "\(command): metadata is up before every target")
            }
            if hosted.contains("timestamp.json") {
                XCTAssertEqual(index, commands.count - 1, "\(command): timestamp.json is up before the last step")
                XCTAssertEqual(hosted, Set(published.keys), "\(command): timestamp.json is up before the rest")
            }
        }
        XCTAssertEqual(DirectoryTree.files(under: www.appendingPathComponent("feed").path), published)

        let locations = try XCTUnwrap(try Self.blocks("nginx").first, "the article's nginx configuration")
        let nginx = try NginxServer(serving: www, locations: locations)
        defer { nginx.stop() }
        for name in published.keys.sorted() {
            let (_, response) = try await URLSession.shared.data(from: nginx.url("/feed/" + name))
            let http = try XCTUnwrap(response as? HTTPURLResponse)
            XCTAssertEqual(http.statusCode, 200, name)
            XCTAssertEqual(
                http.value(forHTTPHeaderField: "Cache-Control"), Self.expectedCacheControl(name),
                "\(name): the nginx recipe's header")
        }
        let fetched = try workspace.dbgen([
            "fetch", nginx.url("/feed/").absoluteString, "--root", "feed/1.root.json", "--bundled", "v1.sqlite",
            "--updates", "updates",
        ])
        XCTAssertEqual(fetched.status, 0, fetched.stderrText)
        XCTAssertTrue(
            fetched.stderrText.contains("installed user_version 2 via a chain of 1 patch"), fetched.stderrText)
    }

    /// Every upload recipe of the article (S3, R2, nginx) puts `targets/` first and
    /// `timestamp.json` last, and gives each its header.
    func testEveryRecipeUploadsTargetsFirstAndTheTimestampLast() throws {
        let recipes = try Self.blocks("sh").filter { $0.contains("aws s3") || $0.contains("rsync") }
        XCTAssertEqual(recipes.count, 3, "S3 with CloudFront, Cloudflare R2, nginx")
        for recipe in recipes {
            let uploads = recipe.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("aws s3") || $0.hasPrefix("rsync") }
            let first = try XCTUnwrap(uploads.first, recipe)
            XCTAssertTrue(first.contains("feed/targets"), "the first upload is the targets: \(first)")
            let last = try XCTUnwrap(uploads.last, recipe)
            XCTAssertTrue(last.contains("feed/timestamp.json"), "the last upload is timestamp.json: \(last)")
            for upload in uploads.dropLast() where upload.contains("timestamp.json") {
                XCTAssertTrue(upload.contains("--exclude"), "timestamp.json before the last step: \(upload)")
            }
            for upload in uploads where upload.hasPrefix("aws s3") {
                if upload.contains("cp feed/root.json") || upload.contains("cp feed/timestamp.json") {
                    XCTAssertTrue(upload.hasSuffix("--cache-control no-cache"), "\(upload): no-cache")
                } else {
                    XCTAssertTrue(upload.contains("--cache-control 'public, max-age=31536000, immutable'"), upload)
                    if upload.contains("sync feed ") {
                        XCTAssertTrue(
                            upload.contains("--exclude root.json") && upload.contains("--exclude timestamp.json"),
                            "\(upload): root.json and timestamp.json are not immutable")
                    }
                }
            }
        }
    }
}
