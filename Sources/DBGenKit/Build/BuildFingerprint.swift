import FileSystemKit
import Foundation
import SQLiteCore

/// What a build depended on: every input's identity (path, size, mtime in ns, inode), the
/// output's identity right after it was written, dbgen's and sqlite3's versions and the options
/// that change the output. Stored where ``FingerprintStore`` says (beside the depfile or in a
/// cache directory, never beside the output); when the current state matches, the build is up
/// to date and nothing is read or written.
struct BuildFingerprint: Codable, Equatable, Sendable {
    var dbgenVersion: String
    var sqliteVersion: String
    var options: [String]
    var schema: String
    /// The absolute output path this fingerprint describes.
    var outputPath: String
    var inputs: [InputFile]
    var output: FileStamp?
    var summary: BuildSummary

    /// The stored fingerprint at `path` (see ``FingerprintStore``), or nil when there is none
    /// or it cannot be decoded (written by another dbgen version, damaged): either way the
    /// build is not known to be up to date, so it runs, and writes a new fingerprint.
    static func load(from path: String) -> BuildFingerprint? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BuildFingerprint.self, from: data)
    }

    /// True when this fingerprint was recorded for `schema` with `options` and no input nor the
    /// output has changed since (by stat only).
    func isCurrent(schema: String, outputPath path: String, options: [String]) -> Bool {
        guard dbgenVersion == DBGenKit.version, sqliteVersion == SQLiteLibrary.sourceID, outputPath == path,
              self.options == options, self.schema == schema,
              let output, let outputNow = FileStamp.of(outputPath), outputNow == output
        else { return false }
        // An input recorded as missing (readfile of a file that did not exist) is current
        // while it is still missing.
        for input in inputs where FileStamp.of(input.path) != input.stamp { return false }
        return true
    }

    /// Writes the record atomically and durably at `path`, creating its directory if needed.
    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try AtomicFile.replace(path, with: try encoder.encode(self), tag: "dbgen")
    }
}
