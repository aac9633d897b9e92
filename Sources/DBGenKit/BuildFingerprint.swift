import CSQLite
import Foundation

/// What a build depended on: every input's identity (path, size, mtime in ns, inode), the
/// output's identity right after it was written, dbgen's and sqlite3's versions and the options
/// that change the output. Stored in a small sidecar file beside the output; when the current
/// state matches, the build is up to date and nothing is read or written.
public struct BuildFingerprint: Codable, Equatable, Sendable {
    public var dbgenVersion: String
    public var sqliteVersion: String
    public var options: [String]
    public var schema: String
    /// The absolute output path this fingerprint describes.
    public var outputPath: String
    public var inputs: [InputFile]
    public var output: FileStamp?
    public var summary: BuildSummary

    /// The sidecar's path for `output`: `.NAME.dbgen-fingerprint` in the same directory.
    public static func sidecarPath(for output: String) -> String {
        let directory = (output as NSString).deletingLastPathComponent
        let name = ".\((output as NSString).lastPathComponent).dbgen-fingerprint"
        return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
    }

    static var currentSQLiteVersion: String { String(cString: sqlite3_sourceid()) }

    /// The stored fingerprint, or nil when absent or unreadable.
    public static func load(for output: String) -> BuildFingerprint? {
        guard let data = FileManager.default.contents(atPath: sidecarPath(for: output)) else { return nil }
        return try? JSONDecoder().decode(BuildFingerprint.self, from: data)
    }

    /// True when this fingerprint was recorded for `schema` with `options` and no input nor the
    /// output has changed since (by stat only).
    public func isCurrent(schema: String, options: [String]) -> Bool {
        guard dbgenVersion == DBGenKit.version, sqliteVersion == Self.currentSQLiteVersion,
              self.options == options, self.schema == schema,
              let output, let outputNow = FileStamp.of(outputPath), outputNow == output
        else { return false }
        for input in inputs {
            guard let stamp = input.stamp, FileStamp.of(input.path) == stamp else { return false }
        }
        return true
    }


    /// Writes the sidecar atomically.
    public func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicOutputFile.write(try encoder.encode(self), to: Self.sidecarPath(for: outputPath))
    }
}
