import DBGenKit
import Foundation
import LayeredDatabase
import SyncProtocol

/// What syncs, read from the user schema script (`--schema`) by the device's own reader: the
/// script is built with dbgen's builder into a temporary SQLite database (which validates its
/// `shipyard_sync` rows as `dbgen build` does, at the script line that wrote a refused one), and
/// LayeredDatabase's `SyncDeclarations` reads them. One reader for device and server, so the
/// two can never disagree on what syncs.
public enum UserSchemaScript {
    /// The synced tables declared by the script at `path`; throws naming the file (and the line
    /// and table or column) when the script does not build, declares nothing, or declares what
    /// docs/Sync.md refuses.
    public static func read(scriptAt path: String) throws -> SyncSchema {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shipyard-sync-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("user.sqlite").path
        var options = BuildOptions(schema: path, output: output)
        options.cacheDirectory = nil
        options.force = true
        do {
            _ = try DatabaseBuilder.build(options)
        } catch {
            throw SyncServerError(status: 0, "\(error)")
        }
        let connection = try Connection(path: output, readOnly: true)
        defer { connection.close() }
        let declarations: SyncDeclarations
        do {
            declarations = try SyncDeclarations.read(from: connection)
        } catch let problem as SyncDeclarationProblem {
            throw SyncServerError(status: 0, "\(path): error: \(problem)")
        }
        guard declarations.declaresSync else {
            throw SyncServerError(
                status: 0,
                "\(path): error: shipyard_sync: no table is declared, so nothing syncs; "
                    + "create shipyard_sync and insert a (T, NULL, 'last-edit-wins') row per synced table")
        }
        return declarations.schema
    }
}
