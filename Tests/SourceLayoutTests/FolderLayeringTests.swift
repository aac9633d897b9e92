import ShipyardTestSupport
import XCTest

/// Each library's folders form a one-way stack: a file uses types declared in its own folder or
/// in folders below it, never above, so every folder can be read, tested and changed with only
/// what lies below it in mind. A library's root files are the bottom layer. ARCHITECTURE.md
/// describes the layers.
final class FolderLayeringTests: XCTestCase {
    /// Per library, its folders from the bottom up ("" is the library's root).
    static let layers: [String: [String]] = [
        "DBGenKit": ["", "Diagnostics", "Inputs", "Schema", "Import", "Script", "Build", "Diff", "Check"],
        "DBGenCommandLine": ["", "Options", "Subcommands"],
        "LayeredDatabase": ["", "Rows", "Migration", "Updates", "Open"],
        "VersionStampKit": ["", "Plist", "Repository", "History", "Format", "Configuration", "Stamp"],
        "FeedClient": ["", "Encoding", "Transport", "Update"],
        "TUF": ["", "JSON", "Metadata", "Trust", "Client"],
    ]

    /// Targets with folders that the table leaves out, each with the reason: an executable's root
    /// command names its subcommands, so there the root sits on top, not at the bottom.
    static let unlayered: [String: String] = [
        "dbgen": "an executable: its root command lists the subcommands",
        "versionstamp": "an executable: its root command lists the subcommands",
    ]

    /// The longest a Swift source may be: a file holds one concept, and a longer one holds two.
    static let maximumLines = 400

    func testEveryLibrarysFoldersFormAOneWayStack() throws {
        var problems: [String] = []
        for (library, folders) in Self.layers.sorted(by: { $0.key < $1.key }) {
            problems += try Self.upwardUses(in: library, folders: folders)
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// A new library with folders gets a row in the table, so its stack is checked from the start.
    func testEveryTargetWithFoldersHasItsStack() throws {
        let sources = SwiftSourceScanner.packageRoot.appendingPathComponent("Sources")
        let fileManager = FileManager.default
        var missing: [String] = []
        for target in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
            let directory = sources.appendingPathComponent(target)
            let entries = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
            let hasSwiftFolder = entries.contains { entry in
                var isDirectory: ObjCBool = false
                let path = directory.appendingPathComponent(entry).path
                guard !entry.hasSuffix(".docc"), fileManager.fileExists(atPath: path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                else { return false }
                return (fileManager.enumerator(atPath: path)?.allObjects as? [String] ?? []).contains {
                    $0.hasSuffix(".swift")
                }
            }
            if hasSwiftFolder, Self.layers[target] == nil, Self.unlayered[target] == nil {
                missing.append("Sources/\(target): folders, but no row in FolderLayeringTests.layers")
            }
        }
        XCTAssertTrue(missing.isEmpty, "\n" + missing.joined(separator: "\n"))
    }

    func testNoSourceIsLongerThanTheLimit() throws {
        var problems: [String] = []
        for file in try SwiftSourceScanner.files(under: "Sources") {
            let lines = file.code.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            if lines > Self.maximumLines {
                problems.append("\(file.path): \(lines) lines, more than \(Self.maximumLines)")
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// The check sees what it must and nothing else, on snippets of each shape.
    func testTheReaderTellsDeclarationsFromUses() {
        let file = SwiftSourceScanner.File(
            path: "Snippet.swift",
            code: SwiftSourceScanner.codeOnly(
                Array(
                    """
                    /// Uses Hidden in a comment.
                    public struct Outer {
                        struct Result { var value: Int }
                        let message = "uses Quoted in a string"
                        func run() -> Result { Other.Member(Helper.make()) }
                    }
                    typealias Handler = (Diagnostic) -> Void
                    extension Extended {}
                    """.utf8)))
        let read = TypeDeclarations(file)
        XCTAssertEqual(read.topLevel, ["Outer", "Handler"])
        XCTAssertEqual(read.nested, ["Result"])
        for used in ["Result", "Other", "Helper", "Diagnostic", "Extended", "Int"] {
            XCTAssertNotNil(read.references[used], used)
        }
        for unused in ["Hidden", "Quoted", "Member", "make", "Outer", "Handler", "value", "message"] {
            XCTAssertNil(read.references[unused], unused)
        }
    }

    /// `PATH:LINE: TYPE is declared in UPPER (FILE), above FOLDER` for each file of `library`
    /// that uses a type declared in a folder above its own, and one line per folder the table
    /// does not place.
    static func upwardUses(in library: String, folders: [String]) throws -> [String] {
        let files = try SwiftSourceScanner.files(under: "Sources/" + library)
        var problems: [String] = []
        func folder(of file: SwiftSourceScanner.File) -> String {
            let parts = file.path.dropFirst("Sources/\(library)/".count).split(separator: "/")
            return parts.count > 1 ? String(parts[0]) : ""
        }
        let unplaced = Set(files.map(folder)).subtracting(folders)
        for name in unplaced.sorted() {
            problems.append("Sources/\(library)/\(name): a folder the table of \(library)'s layers does not place")
        }
        let read = files.map(TypeDeclarations.init)
        var declaredIn: [String: (folder: String, path: String)] = [:]
        for (file, declarations) in zip(files, read) {
            for name in declarations.topLevel { declaredIn[name] = (folder(of: file), file.path) }
        }
        for (file, declarations) in zip(files, read) {
            guard let level = folders.firstIndex(of: folder(of: file)) else { continue }
            for (name, offset) in declarations.references.sorted(by: { $0.value < $1.value }) {
                guard let declaration = declaredIn[name], !declarations.nested.contains(name),
                    let declarationLevel = folders.firstIndex(of: declaration.folder), declarationLevel > level
                else { continue }
                let below = folder(of: file).isEmpty ? "\(library)'s root" : folder(of: file)
                problems.append(
                    "\(file.location(offset)): \(name) is declared in \(declaration.folder) "
                        + "(\(declaration.path)), above \(below)")
            }
        }
        return problems
    }
}
