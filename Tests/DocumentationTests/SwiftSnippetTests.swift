import Foundation
import ShipyardTestSupport
import XCTest

/// Every ```` ```swift ```` block of the README, CONTRIBUTING, ARCHITECTURE, `docs/`,
/// `Examples/README.md` and the DocC articles type-checks as written, against the package's own
/// modules: imports given, every name defined, in the context its directive names (CONTRIBUTING.md,
/// "Swift in the documentation"). A block that names something undefined, or calls an API that
/// has changed, fails here with its Markdown file and line.
final class SwiftSnippetTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Markdown files whose Swift is checked, relative to the repository.
    static func documents() throws -> [String] {
        var files = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "Examples/README.md"]
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path).sorted()
        where name.hasSuffix(".md") {
            files.append("docs/\(name)")
        }
        let sources = repository.appendingPathComponent("Sources")
        for target in try manager.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent("\(target)/\(target).docc")
            guard let articles = try? manager.contentsOfDirectory(atPath: catalog.path) else { continue }
            files += articles.sorted().filter { $0.hasSuffix(".md") }.map { "Sources/\(target)/\(target).docc/\($0)" }
        }
        return files
    }

    /// The snippets of the Markdown `text` (as if it were `file`), each checked.
    static func check(_ text: String, file: String, with checker: SwiftTypeChecker) throws -> [String] {
        let (snippets, problems) = SwiftSnippet.snippets(of: MarkdownCodeBlock.blocks(in: text, file: file))
        var found = problems
        let lock = NSLock()
        var thrown: Error?
        DispatchQueue.concurrentPerform(iterations: snippets.count) { index in
            do {
                if let problem = try checker.problems(of: snippets[index]) { lock.withLock { found.append(problem) } }
            } catch {
                lock.withLock { thrown = error }
            }
        }
        if let thrown { throw thrown }
        return found.sorted()
    }

    func testEverySwiftBlockTypeChecks() throws {
        #if !os(Linux)
        throw XCTSkip("the documentation's Swift is type-checked on Linux, where .ci/run runs")
        #else
        let checker = try SwiftTypeChecker(repository: Self.repository)
        var problems: [String] = []
        var blocks = 0
        for file in try Self.documents() {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            blocks += MarkdownCodeBlock.blocks(in: text, file: file).filter { $0.language == "swift" }.count
            problems += try Self.check(text, file: file, with: checker)
        }
        XCTAssertGreaterThan(blocks, 20, "the README's and the articles' Swift blocks were found")
        XCTAssertEqual(problems, [], problems.joined(separator: "\n\n"))
        #endif
    }

    /// The checker is not fooled: an undefined name, a changed API, a wrong manifest, a continued
    /// block without its start, an Apple-only call the SDK does not have and an excerpt that is
    /// not the file's each fail, at their Markdown line; their correct forms pass.
    func testTheCheckerFindsWhatDoesNotCompile() throws {
        #if !os(Linux)
        throw XCTSkip("the documentation's Swift is type-checked on Linux, where .ci/run runs")
        #else
        let checker = try SwiftTypeChecker(repository: Self.repository)
        let good = """
            Text.

            ```swift
            import Foundation
            import LayeredDatabase

            let resources = Bundle.module.resourcePath!
            ```

            <!-- swift: continues -->
            ```swift
            let installer = UpdateInstaller(bundledPath: resources + "/food.sqlite", updatesDirectory: "/tmp/u")
            ```

            <!-- swift: manifest dependencies -->
            ```swift
            .package(url: "https://github.com/OWNER/Shipyard.git", branch: "main"),
            ```

            <!-- swift: apple -->
            ```swift
            import BackgroundAssets
            import Foundation

            @main
            struct Extension: BADownloaderExtension {
                func downloads(for request: BAContentRequest, manifestURL: URL,
                               extensionInfo: BAAppExtensionInfo) -> Set<BADownload> { [] }
            }
            ```

            <!-- swift: build-version -->
            ```swift
            print(BuildVersion.version)
            ```

            <!-- swift: excerpt Package.swift -->
            ```swift
            let package = Package(
                name: "Shipyard",
            ```
            """
        XCTAssertEqual(try Self.check(good, file: "good.md", with: checker), [])

        let bad = """
            ```swift
            import LayeredDatabase
            let db = try LayeredDatabase(userPath: "/tmp/user.sqlite", bundledPath: "b")
            ```

            <!-- swift: continues -->
            ```swift
            db.noSuchMethod()
            ```

            <!-- swift: manifest targets -->
            ```swift
            .executableTarget(nam: "MyApp"),
            ```

            <!-- swift: apple -->
            ```swift
            import BackgroundAssets
            let request = BAContentRequest.someday
            ```

            ```swift
            print(BuildVersion.version)
            ```

            <!-- swift: excerpt Package.swift -->
            ```swift
            let package = Package(name: "Elsewhere")
            ```

            <!-- swift: continue -->
            ```swift
            ```

            ```swift
            import LayeredDatabase
            let db = try LayeredDatabase(userPath: documents + "/user.sqlite", bundledPath: "b")
            ```
            """
        let problems = try Self.check(bad, file: "bad.md", with: checker).joined(separator: "\n")
        for expected in [
            "bad.md:37:", "cannot find 'documents' in scope", "bad.md:8:", "noSuchMethod", "bad.md:13:",
            "bad.md:19:", "someday", "bad.md:23:", "cannot find 'BuildVersion' in scope",
            "bad.md:28: `let package = Package(name: \"Elsewhere\")` is not in Package.swift",
            "bad.md:32: unknown directive word 'continue'",
        ] {
            XCTAssertTrue(problems.contains(expected), "\(expected) in:\n\(problems)")
        }
        #endif
    }
}
