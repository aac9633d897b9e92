import Foundation
import SQLiteCore

/// What a build depended on: every input's identity (path, size, mtime in ns, inode), the
/// output's identity right after it was written, dbgen's and sqlite3's versions and the options
/// that change the output. Stored in a small sidecar file beside the output; when the current
/// state matches, the build is up to date and nothing is read or written.
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

    /// The sidecar's path for `output`: `.NAME.dbgen-fingerprint` in the same directory.
    static func sidecarPath(for output: String) -> String {
        let directory = (output as NSString).deletingLastPathComponent
        let name = ".\((output as NSString).lastPathComponent).dbgen-fingerprint"
        return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
    }

    /// The stored fingerprint, or nil when there is none or it cannot be decoded (written by
    /// another dbgen version, damaged): either way the build is not known to be up to date,
    /// so it runs, and writes a new fingerprint.
    static func load(for output: String) -> BuildFingerprint? {
        guard let data = FileManager.default.contents(atPath: sidecarPath(for: output)) else { return nil }
        do {
            return try JSONDecoder().decode(BuildFingerprint.self, from: data)
        } catch {
            return nil
        }
    }

    /// True when this fingerprint was recorded for `schema` with `options` and no input nor the
    /// output has changed since (by stat only).
    func isCurrent(schema: String, options: [String]) -> Bool {
        guard dbgenVersion == DBGenKit.version, sqliteVersion == SQLiteLibrary.sourceID,
              self.options == options, self.schema == schema,
              let output, let outputNow = FileStamp.of(outputPath), outputNow == output
        else { return false }
        for input in inputs {
            guard let stamp = input.stamp, FileStamp.of(input.path) == stamp else { return false }
        }
        return true
    }

    /// Writes the sidecar atomically.
    func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicOutputFile.write(try encoder.encode(self), to: Self.sidecarPath(for: outputPath))
    }
}
