import Foundation
import XCTest

/// LayeredDatabase's folders form a one-way stack: a file uses only the types declared in its
/// own folder or in a folder below it, so each folder can be read (and changed) knowing only
/// what is under it.
final class FolderStackTests: LayeredDatabaseTestCase {
    /// Bottom to top; "" is the target's root folder.
    static let stack = ["", "Rows", "Migration", "Updates", "Open"]

    func testEveryFileUsesOnlyTypesOfItsFolderOrBelow() throws {
        let root = PrivacyManifestTests.packageRoot.appendingPathComponent("Sources/LayeredDatabase")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var sources: [(folder: String, name: String, code: String)] = []
        for file in files {
            let relative = file.path.dropFirst(root.path.count + 1).split(separator: "/")
            let folder = relative.count > 1 ? String(relative[0]) : ""
            XCTAssertTrue(Self.stack.contains(folder), "\(folder)/ is not in the stack: add it where it belongs")
            // Code only: `//` comments (documentation included) may name any type.
            let code = try String(contentsOf: file, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
                .joined(separator: "\n")
            sources.append((folder, String(relative.last!), code))
        }
        // Types declared at the top level (no indentation), by folder.
        let declaration = try NSRegularExpression(
            pattern: #"^(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"#
                + #"(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)"#,
            options: [.anchorsMatchLines])
        var declaredIn: [String: String] = [:]
        for source in sources {
            let range = NSRange(source.code.startIndex..., in: source.code)
            for match in declaration.matches(in: source.code, range: range) {
                declaredIn[String(source.code[Range(match.range(at: 1), in: source.code)!])] = source.folder
            }
        }
        XCTAssertNotNil(declaredIn["LayeredDatabaseError"], "the scan finds the declarations")
        for source in sources {
            let level = Self.stack.firstIndex(of: source.folder) ?? 0
            for (type, folder) in declaredIn where (Self.stack.firstIndex(of: folder) ?? 0) > level {
                if source.code.range(of: #"\b\#(type)\b"#, options: .regularExpression) != nil {
                    XCTFail("\(source.folder)/\(source.name) uses \(type), declared above it in \(folder)/")
                }
            }
        }
    }
}
