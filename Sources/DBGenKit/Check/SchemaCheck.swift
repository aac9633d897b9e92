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
import SQLiteCore
import EssentialsSupport

/// `dbgen check`: builds a schema into a scratch file and compares it, by content, with an
/// existing database.
public enum SchemaCheck {
    /// What a check found.
    public struct Result: Sendable {
        /// How the database differs from what the schema builds (empty when it is current).
        public var differences: [DatabaseDifference]
        /// True when the database holds exactly what the schema builds.
        public var isCurrent: Bool { differences.isEmpty }
    }

    /// Builds `schema` into a temporary directory and compares it with `output`.
    ///
    /// - Parameters:
    ///   - schema: The schema script (relative to the current directory, or absolute).
    ///   - output: The database to check.
    ///   - diagnosticHandler: Receives the build's warnings.
    /// - Throws: ``DBGenError`` when the build fails or `output` cannot be read.
    public static func run(
        schema: String, output: String,
        diagnosticHandler: ((Diagnostic) -> Void)? = nil
    ) throws -> Result {
        let cwd = PathResolution.currentDirectory
        let schemaPath = PathResolution.absolute(schema, relativeTo: cwd)
        let outputPath = PathResolution.absolute(output, relativeTo: cwd)
        try DatabaseBuilder.requireSchema(schema, at: schemaPath)
        guard FileManager.default.fileExists(atPath: outputPath) else {
            throw DBGenError(.unreadableDatabase, "cannot open \"\(output)\": no such file")
        }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("dbgen-check-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw DBGenError(.output, "cannot create a scratch directory for the check: \(error.readableDescription)")
        }
        // A scratch directory left behind (the system cleans its temporary directory) changes
        // nothing in the check's answer, so a failure to remove it is not reported.
        defer { _ = try? FileManager.default.removeItem(at: scratch) }
        let built = scratch.appendingPathComponent("expected.sqlite").path
        _ = try DatabaseBuilder.run(
            schema: schema, schemaPath: schemaPath, into: built, strict: false,
            diagnosticHandler: diagnosticHandler, progressHandler: nil)
        do {
            let expected = try Connection(path: built, readOnly: true)
            let actual = try open(output, at: outputPath)
            return Result(differences: try DatabaseComparison.differences(expected: expected, actual: actual))
        } catch let error as SQLiteError {
            throw DBGenError(.unreadableDatabase, "cannot compare with \"\(output)\": \(error.message)")
        }
    }

    private static func open(_ output: String, at path: String) throws -> Connection {
        do {
            let connection = try Connection(path: path, readOnly: true)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            return connection
        } catch let error as SQLiteError {
            throw DBGenError(.unreadableDatabase, "cannot read \"\(output)\" as a SQLite database: \(error.message)")
        }
    }
}
