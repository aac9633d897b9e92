import FileSystemKit
import Foundation
import SQLiteCore

/// Installs newer shipped data into an app-owned updates directory, so that
/// ``LayeredDatabase`` attaches it instead of the bundled file.
///
/// ```swift
/// let updater = DatabaseUpdater(bundledPath: bundle + "/food.sqlite",
///                               updatesDirectory: appSupport + "/food-updates")
/// let version = try updater.installDatabase(at: downloaded, sha256: expectedHash)
/// // or: try updater.installPatch(at: downloadedPatch, sha256: expectedHash)
/// ```
///
/// Before anything is installed: the SHA-256 of the given file is checked (when given), the
/// result passes `PRAGMA quick_check`, and its `user_version` must be greater than that of
/// the database in effect (``DatabaseInEffect``). Otherwise a ``DatabaseUpdateError`` names
/// the file and the reason, and the directory is exactly as it was.
///
/// The install is atomic: the new file is written to a temporary file in the directory,
/// synced to stable storage (`F_FULLFSYNC` on Apple platforms), renamed over the installed
/// one, and the directory synced; a kill at any moment leaves the previous database or the
/// new one in effect, never a mix, and the next install removes what a killed one left.
/// Installs hold an exclusive lock (on a lock file of its own in the directory, never on a
/// database), so concurrent ones run one after the other. The bundled file is only read,
/// and the user database is never opened.
public struct DatabaseUpdater {
    /// The database shipped in the app (read-only).
    public let bundledPath: String
    /// The app-owned directory updates are installed into (created when missing).
    public let updatesDirectory: String

    /// An updater for one bundled database.
    public init(bundledPath: String, updatesDirectory: String) {
        self.bundledPath = bundledPath
        self.updatesDirectory = updatesDirectory
    }

    private var directory: UpdatesDirectory {
        UpdatesDirectory(path: updatesDirectory, fileName: (bundledPath as NSString).lastPathComponent)
    }

    /// The database in effect now.
    ///
    /// - Throws: ``DatabaseUpdateError/fileNotFound(path:)`` or
    ///   ``DatabaseUpdateError/notADatabase(path:reason:)`` for the bundled file.
    public func databaseInEffect() throws -> DatabaseInEffect {
        do {
            return try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: updatesDirectory)
        } catch LayeredDatabaseError.bundledDatabaseNotFound(let path) {
            throw DatabaseUpdateError.fileNotFound(path: path)
        } catch LayeredDatabaseError.bundledDatabaseUnreadable(let path, let reason) {
            throw DatabaseUpdateError.notADatabase(path: path, reason: reason)
        }
    }

    /// Installs the whole database at `path`; returns its `user_version`.
    @discardableResult
    public func installDatabase(at path: String, sha256: String? = nil) throws -> Int64 {
        _ = try DatabaseFile.size(path)
        return try withPreparedDirectory { directory, inEffect in
            let output = try directory.makeOutput()
            defer { output.discard() }
            let digest = try DatabaseFile.copy(path, into: output)
            if let sha256, digest != sha256.lowercased() {
                throw DatabaseUpdateError.checksumMismatch(path: path, expected: sha256.lowercased(), actual: digest)
            }
            try DatabaseFile.checkHeader(output.temporaryPath, reported: path)
            let version = try DatabaseFile.verify(output.temporaryPath, reported: path)
            try Self.requireNewer(version, than: inEffect, path: path)
            try UpdatesDirectory.fileSystem { try output.commit() }
            return version
        }
    }

    /// Applies the `dbgen diff` patch at `path` to a copy of the database in effect, in one
    /// transaction, and installs the result; returns its `user_version`.
    @discardableResult
    public func installPatch(at path: String, sha256: String? = nil) throws -> Int64 {
        _ = try DatabaseFile.size(path)
        if let sha256 {
            let digest = try DatabaseFile.sha256(of: path)
            guard digest == sha256.lowercased() else {
                throw DatabaseUpdateError.checksumMismatch(path: path, expected: sha256.lowercased(), actual: digest)
            }
        }
        return try withPreparedDirectory { directory, inEffect in
            let output = try directory.makeOutput()
            defer { output.discard() }
            try DatabaseFile.copy(inEffect.path, into: output)
            do {
                let connection = try Connection(path: output.temporaryPath)
                defer { connection.close() }
                try connection.execute("PRAGMA journal_mode = DELETE")
                try PatchApplier(patchPath: path).apply(to: connection)
            } catch let error as SQLiteError {
                throw DatabaseUpdateError.sqlite(path: path, error)
            }
            let version = try DatabaseFile.verify(output.temporaryPath, reported: path)
            try Self.requireNewer(version, than: inEffect, path: path)
            try UpdatesDirectory.fileSystem { try output.commit() }
            return version
        }
    }

    /// Creates the directory if needed (removing it again if the install fails and it was
    /// created for it), takes its lock, removes stale temporaries, and reads what is in effect.
    private func withPreparedDirectory(_ body: (UpdatesDirectory, DatabaseInEffect) throws -> Int64) throws -> Int64 {
        let inEffectBefore = try databaseInEffect()
        let directory = self.directory
        let created = try directory.create()
        do {
            return try directory.withLock {
                directory.removeStaleTemporaries()
                let inEffect = (try? databaseInEffect()) ?? inEffectBefore
                return try body(directory, inEffect)
            }
        } catch {
            if created { try? FileManager.default.removeItem(atPath: directory.path) }
            throw error
        }
    }

    private static func requireNewer(_ version: Int64, than inEffect: DatabaseInEffect, path: String) throws {
        guard version > inEffect.userVersion else {
            throw DatabaseUpdateError.notNewer(path: path, userVersion: version, inEffect: inEffect.userVersion, inEffectPath: inEffect.path)
        }
    }

}
