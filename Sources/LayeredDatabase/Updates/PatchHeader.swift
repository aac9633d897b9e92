#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import EssentialsSupport
import FileSystemKit

/// The header `dbgen diff` writes at the top of a whole-database patch: which database the
/// patch applies to (its base) and which it produces (its result, on the line that says
/// `target:`), each as a `user_version` and the SHA-256 of the database file. The lines are SQL comments, so `sqlite3 COPY < patch.sql`
/// runs the patch as it is:
///
/// ```
/// -- dbgen diff base: user_version=7 sha256=3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b
/// -- dbgen diff target: user_version=8 sha256=0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f
/// BEGIN TRANSACTION;
/// …
/// ```
///
/// ``UpdateInstaller/installPatch(at:sha256:)`` applies a patch only to its base (else
/// ``LayeredDatabaseError/patchForAnotherBase(path:base:result:inEffect:inEffectPath:)``) and
/// treats a patch whose result is already in effect as installed (a re-download). A patch
/// without a header (hand-written, or a `dbgen diff --table` patch) is checked only by
/// `user_version`.
///
/// ``text`` is the one definition of the header's lines: `dbgen diff` writes them with it.
public struct PatchHeader: Equatable, Sendable {
    /// One side of the patch: a `user_version` and a file's SHA-256.
    public typealias Version = DatabaseVersion

    /// The database the patch applies to.
    public let base: Version
    /// The database the patch produces (the header's `target:` line, a name the format keeps).
    public let result: Version

    /// A header.
    public init(base: Version, result: Version) {
        self.base = base
        self.result = result
    }

    static let basePrefix = "-- dbgen diff base: "
    static let resultPrefix = "-- dbgen diff target: "

    /// The header's two lines, as `dbgen diff` writes them.
    public var text: String {
        "\(Self.basePrefix)\(Self.fields(base))\n\(Self.resultPrefix)\(Self.fields(result))\n"
    }

    private static func fields(_ version: Version) -> String {
        "user_version=\(version.userVersion) sha256=\(version.sha256)"
    }

    /// Reads the header of the patch at `path`: nil when the patch has none (its first lines
    /// that are `--` comments hold no `-- dbgen diff` line).
    ///
    /// - Throws: ``LayeredDatabaseError/invalidPatchHeader(path:line:reason:)`` for a header
    ///   line that is malformed or a header with one side only.
    public static func read(fromPatchAt path: String) throws -> PatchHeader? {
        guard let file = ReadableFile(path: path) else {
            throw LayeredDatabaseError.fileNotFound(path: path)
        }
        var reader = LineReader(file: file)
        var base: Version?, result: Version?
        var lastLine = 0
        while let (raw, number) = try reader.next() {
            let line = raw.trimmingNewlines()
            guard line.hasPrefix("--") else { break }
            lastLine = number
            for (prefix, isBase) in [(basePrefix, true), (resultPrefix, false)] where line.hasPrefix(prefix) {
                let version = try parse(line.dropFirst(prefix.count), path: path, line: number)
                if isBase { base = version } else { result = version }
            }
        }
        switch (base, result) {
        case (nil, nil): return nil
        case (let base?, let result?): return PatchHeader(base: base, result: result)
        default:
            throw LayeredDatabaseError.invalidPatchHeader(
                path: path, line: lastLine,
                reason: "it names a \(base == nil ? "target" : "base") but no \(base == nil ? "base" : "target")")
        }
    }

    private static func parse(_ text: Substring, path: String, line: Int) throws -> Version {
        var fields: [String: String] = [:]
        for field in text.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let versionText = fields["user_version"], let userVersion = Int64(versionText) else {
            throw LayeredDatabaseError.invalidPatchHeader(path: path, line: line, reason: "no integer user_version=")
        }
        guard let sha256 = fields["sha256"], sha256.utf8.count == 64, sha256.allSatisfy(\.isHexDigit) else {
            throw LayeredDatabaseError.invalidPatchHeader(
                path: path, line: line, reason: "no sha256= of 64 hexadecimal digits")
        }
        return Version(userVersion: userVersion, sha256: sha256.lowercased())
    }
}
