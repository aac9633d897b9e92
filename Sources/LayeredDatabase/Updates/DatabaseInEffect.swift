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

/// Which shipped database is in effect: the installed update when its `user_version` is
/// greater than the bundled file's, else the bundled file (an app update that ships newer
/// data wins over an older download; the bundled file wins ties).
public struct DatabaseInEffect: Equatable, Sendable {
    /// The file to attach.
    public let path: String
    /// Its `user_version`.
    public let userVersion: Int64
    /// True when it is the installed update, false when it is the bundled file.
    public let isInstalledUpdate: Bool

    /// Chooses between `bundledPath` and the update installed in `updatesDirectory` (none
    /// when nil, missing, or unreadable: a damaged update never hides the bundled data).
    ///
    /// - Throws: ``LayeredDatabaseError`` when the bundled file is missing or not a database.
    public static func select(bundledPath: String, updatesDirectory: String?) throws -> DatabaseInEffect {
        let bundledVersion = try bundledUserVersion(bundledPath)
        let bundled = DatabaseInEffect(path: bundledPath, userVersion: bundledVersion, isInstalledUpdate: false)
        guard let updatesDirectory else { return bundled }
        let installed = UpdatesDirectory(path: updatesDirectory, fileName: PathText.lastComponent(bundledPath))
            .installedPath
        guard FileManager.default.fileExists(atPath: installed), let version = try? userVersion(installed),
            version > bundledVersion
        else { return bundled }
        return DatabaseInEffect(path: installed, userVersion: version, isInstalledUpdate: true)
    }

    private static func bundledUserVersion(_ path: String) throws -> Int64 {
        guard FileManager.default.fileExists(atPath: path) else {
            throw LayeredDatabaseError.bundledDatabaseNotFound(path: path)
        }
        do {
            return try userVersion(path)
        } catch let error as SQLiteError {
            throw LayeredDatabaseError.bundledDatabaseUnreadable(
                path: path, reason: "cannot read it as a SQLite database (\(error.message))")
        }
    }

    /// `user_version` read read-only and immutable (no lock, no file created).
    static func userVersion(_ path: String) throws -> Int64 {
        let connection = try Connection(
            uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "ro"), ("immutable", "1")]))
        defer { connection.close() }
        _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
        return try connection.userVersion()
    }
}
