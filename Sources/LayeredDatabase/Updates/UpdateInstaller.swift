import FileSystemKit
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

/// Installs newer shipped data into an app-owned updates directory, so that
/// ``LayeredDatabase`` attaches it instead of the bundled file.
///
/// ```swift
/// let installer = UpdateInstaller(bundledPath: bundle + "/food.sqlite",
///                                 updatesDirectory: appSupport + "/food-updates")
/// let outcome = try installer.installPatch(at: downloadedPatch, sha256: expectedHash)
/// // or: try installer.installDatabase(at: downloadedFile, sha256: expectedHash)
/// if outcome.wasAlreadyInstalled { /* a re-download: nothing changed */ }
/// ```
///
/// Before anything is installed: the SHA-256 of the given file is checked (when given), a
/// patch's header must name the database in effect as its base (``PatchHeader``), the result
/// passes `PRAGMA quick_check`, and its `user_version` must be greater than that of the
/// database in effect (``DatabaseInEffect``). Otherwise a ``LayeredDatabaseError`` names the
/// file and the reason, and the directory is exactly as it was. Installing what is already
/// in effect (the same patch or file downloaded again) succeeds and changes nothing.
///
/// The install is atomic: the new file is written to a temporary file in the directory,
/// synced to stable storage (`F_FULLFSYNC` on Apple platforms), renamed over the installed
/// one, and the directory synced; a kill at any moment leaves the previous database or the
/// new one in effect, never a mix, and the next install removes what a killed one left.
/// Installs hold an exclusive lock (on a lock file of its own in the directory, never on a
/// database), so concurrent ones run one after the other. The bundled file is only read,
/// and the user database is never opened.
public struct UpdateInstaller {
    /// The database shipped in the app (read-only).
    public let bundledPath: String
    /// The app-owned directory updates are installed into (created when missing).
    public let updatesDirectory: String

    /// What an install did.
    public struct Outcome: Equatable, Sendable {
        /// The `user_version` of the database in effect afterwards.
        public let userVersion: Int64
        /// True when the file or patch given was already in effect (downloaded again): the
        /// install succeeded and changed nothing.
        public let wasAlreadyInstalled: Bool

        /// An outcome (for comparisons in an app's tests).
        public init(userVersion: Int64, wasAlreadyInstalled: Bool) {
            self.userVersion = userVersion
            self.wasAlreadyInstalled = wasAlreadyInstalled
        }
    }

    /// An installer for one bundled database.
    public init(bundledPath: String, updatesDirectory: String) {
        self.bundledPath = bundledPath
        self.updatesDirectory = updatesDirectory
    }

    private var directory: UpdatesDirectory {
        UpdatesDirectory(path: updatesDirectory, fileName: PathText.lastComponent(bundledPath))
    }

    /// The database in effect now.
    ///
    /// - Throws: ``LayeredDatabaseError/fileNotFound(path:)`` or
    ///   ``LayeredDatabaseError/notADatabase(path:reason:)`` for the bundled file.
    public func databaseInEffect() throws -> DatabaseInEffect {
        do {
            return try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: updatesDirectory)
        } catch LayeredDatabaseError.bundledDatabaseNotFound(let path) {
            throw LayeredDatabaseError.fileNotFound(path: path)
        } catch LayeredDatabaseError.bundledDatabaseUnreadable(let path, let reason) {
            throw LayeredDatabaseError.notADatabase(path: path, reason: reason)
        }
    }

    /// The SHA-256s that name the content of the database in effect: that of its file and, for
    /// an installed update a patch produced, the release it stands for (the patch header's
    /// result). A feed client looks for a patch whose base is one of them.
    ///
    /// - Throws: As ``databaseInEffect()``, or ``LayeredDatabaseError/fileSystem(path:operation:errno:)``.
    public func contentIdentitiesInEffect() throws -> Set<String> {
        try directory.contentHashes(of: try databaseInEffect())
    }

    /// Installs the whole database at `path`.
    @discardableResult
    public func installDatabase(at path: String, sha256: String? = nil) throws -> Outcome {
        _ = try DatabaseFile.size(path)
        return try withPreparedDirectory { directory, inEffect in
            let output = try directory.makeOutput()
            defer { output.discard() }
            let digest = try DatabaseFile.copy(path, into: output)
            if let sha256, digest != sha256.lowercased() {
                throw LayeredDatabaseError.checksumMismatch(path: path, expected: sha256.lowercased(), actual: digest)
            }
            try DatabaseFile.checkHeader(output.temporaryPath, reported: path)
            let version = try DatabaseFile.verify(output.temporaryPath, reported: path)
            if version == inEffect.userVersion, try directory.contentHashes(of: inEffect).contains(digest) {
                return Outcome(userVersion: version, wasAlreadyInstalled: true)
            }
            try Self.requireNewer(version, than: inEffect, path: path)
            try directory.commit(output, standingFor: digest)
            return Outcome(userVersion: version, wasAlreadyInstalled: false)
        }
    }

    /// Applies the `dbgen diff` patch at `path` to a copy of the database in effect, in one
    /// transaction, and installs the result. A patch whose header names another base is
    /// refused; one whose target is already in effect changes nothing.
    @discardableResult
    public func installPatch(at path: String, sha256: String? = nil) throws -> Outcome {
        try installPatch(try PatchFile(at: path, sha256: sha256))
    }

    /// Installs `patch` as ``installPatch(at:sha256:)`` does, by the header ``PatchFile`` read
    /// (the patch is read once more, as it is applied).
    @discardableResult
    public func installPatch(_ patch: PatchFile) throws -> Outcome {
        let (path, header) = (patch.path, patch.header)
        return try withPreparedDirectory { directory, inEffect in
            let output = try directory.makeOutput()
            defer { output.discard() }
            let inEffectDigest = try DatabaseFile.copy(inEffect.path, into: output)
            if let header {
                let identities = directory.contentHashes(of: inEffect, bytes: inEffectDigest)
                if inEffect.userVersion == header.result.userVersion, identities.contains(header.result.sha256) {
                    return Outcome(userVersion: inEffect.userVersion, wasAlreadyInstalled: true)
                }
                guard inEffect.userVersion == header.base.userVersion, identities.contains(header.base.sha256) else {
                    throw LayeredDatabaseError.patchForAnotherBase(
                        path: path, base: header.base, result: header.result,
                        inEffect: inEffect.userVersion, inEffectPath: inEffect.path)
                }
            }
            do {
                let connection = try Connection(path: output.temporaryPath)
                defer { connection.close() }
                try connection.execute("PRAGMA journal_mode = DELETE")
                try PatchApplier(patchPath: path).apply(to: connection)
            } catch let error as SQLiteError {
                throw LayeredDatabaseError.sqlite(path: path, error)
            }
            let version = try DatabaseFile.verify(output.temporaryPath, reported: path)
            try Self.requireNewer(version, than: inEffect, path: path)
            try directory.commit(output, standingFor: header?.result.sha256)
            return Outcome(userVersion: version, wasAlreadyInstalled: false)
        }
    }

    /// Removes the installed update, so that the bundled database is in effect again: for data
    /// that must not stay whatever its `user_version` (a feed client removes what was installed
    /// under an earlier data epoch, such as a release a leaked key published). Under the install
    /// lock, the installed file and its content record are unlinked and the directory synced; a
    /// ``LayeredDatabase`` already open reads the data it attached until it switches.
    ///
    /// - Returns: Whether there was an installed update.
    /// - Throws: ``LayeredDatabaseError/fileSystem(path:operation:errno:)``.
    @discardableResult
    public func removeInstalledUpdate() throws -> Bool {
        let directory = self.directory
        guard FileManager.default.fileExists(atPath: directory.installedPath) else { return false }
        return try directory.withLock {
            directory.removeStaleTemporaries()
            guard unlink(directory.installedPath) == 0 else {
                guard errno == ENOENT else {
                    throw LayeredDatabaseError.fileSystem(
                        path: directory.installedPath, operation: "unlink", errno: errno)
                }
                return false
            }
            unlink(directory.contentRecordPath)
            _ = DurableSync.synchronizeDirectory(containing: directory.installedPath)
            return true
        }
    }

    /// Creates the directory if needed (removing it again if the install fails, it was created
    /// for it and nothing else has been put there since), takes its lock, removes stale
    /// temporaries, and reads what is in effect.
    private func withPreparedDirectory(_ body: (UpdatesDirectory, DatabaseInEffect) throws -> Outcome) throws -> Outcome
    {
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
            // rmdir: only when empty. An install on another thread or process may have put its
            // lock, or its database, there since (it then re-creates a directory removed under it).
            if created { rmdir(directory.path) }
            throw error
        }
    }

    private static func requireNewer(_ version: Int64, than inEffect: DatabaseInEffect, path: String) throws {
        guard version > inEffect.userVersion else {
            throw LayeredDatabaseError.notNewer(
                path: path, userVersion: version, inEffect: inEffect.userVersion, inEffectPath: inEffect.path)
        }
    }
}

/// The app-owned directory that holds the installed update of one bundled database:
/// `DIR/<bundled file name>`, and `DIR/.<name>.content` once an install has finished.
///
/// - `.<name>.content` records which content the installed file stands for: the SHA-256 of
///   the database file a patch produced (its header's result) or of the file installed
///   whole, with the SHA-256 of the installed bytes it belongs to. A patched copy does not
///   have the bytes of the file `dbgen diff` compared, so the next patch's base is recognised
///   through it; a record whose bytes hash is not the installed file's (a kill between the
///   install and the record) is ignored.
/// - While an install runs, `DIR/.<name>.lock` is locked (a ``SidecarLock``), so two installs
///   at once, from threads or processes, run one after the other; the new database is built as
///   `DIR/.<name>.update-XXXXXX` (SQLite's `-journal` beside it), with its own `.lock`
///   sidecar, an ``AtomicOutputFile`` renamed over the installed file.
///
/// Neither lock is ever on a file SQLite opens. An install killed half-way leaves those files;
/// the next install removes them.
struct UpdatesDirectory {
    let path: String
    /// The installed database's file name (the bundled file's).
    let fileName: String

    /// The installed update (which may not exist).
    var installedPath: String { path + "/" + fileName }
    /// The lock installs take.
    var lockPath: String { path + "/." + fileName + ".lock" }
    /// The record of the content the installed file stands for.
    var contentRecordPath: String { path + "/." + fileName + ".content" }
    private static let temporaryTag = "update"
    private static let recordTag = "tmp"

    /// Creates the directory if missing; returns whether it did.
    func create() throws -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return false }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LayeredDatabaseError.fileSystem(path: path, operation: "create directory", errno: errno)
        }
        return true
    }

    /// Runs `body` holding the directory's install lock.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        let lock: SidecarLock
        do {
            lock = try SidecarLock.acquire(at: lockPath)
        } catch let error as FileSystemError where error.code == ENOENT {
            // A failed install removed the (empty) directory it had created meanwhile.
            _ = try create()
            lock = try Self.fileSystem { try SidecarLock.acquire(at: lockPath) }
        } catch let error as FileSystemError {
            throw LayeredDatabaseError(error)
        }
        defer { lock.release() }
        return try body()
    }

    /// Removes what killed installs left (call holding the lock, so every temporary is stale).
    func removeStaleTemporaries() {
        AtomicOutputFile.removeStaleTemporaries(
            of: installedPath, tag: Self.temporaryTag,
            companionSuffixes: AtomicOutputFile.sqliteCompanionSuffixes)
        AtomicOutputFile.removeStaleTemporaries(of: contentRecordPath, tag: Self.recordTag)
    }

    /// A new, empty temporary database in the directory, to be committed over the installed one.
    func makeOutput() throws -> AtomicOutputFile {
        try Self.fileSystem {
            try AtomicOutputFile(
                destination: installedPath, tag: Self.temporaryTag,
                companionSuffixes: AtomicOutputFile.sqliteCompanionSuffixes)
        }
    }

    /// Installs `output` and records the content it stands for (when known). The record is
    /// written after the install: if that fails, the install stands and the record is stale,
    /// which only makes the next patch ask for the whole database.
    func commit(_ output: AtomicOutputFile, standingFor content: String?) throws {
        let bytes = try DatabaseFile.sha256(of: output.temporaryPath)
        try Self.fileSystem { try output.commit() }
        if let content {
            try? AtomicFile.replace(contentRecordPath, with: Data("\(bytes) \(content)\n".utf8), tag: Self.recordTag)
        } else {
            unlink(contentRecordPath)
        }
    }

    /// The SHA-256s that name the content of `inEffect`: that of its bytes and, for the
    /// installed update, the content its record says it stands for.
    func contentHashes(of inEffect: DatabaseInEffect) throws -> Set<String> {
        contentHashes(of: inEffect, bytes: try DatabaseFile.sha256(of: inEffect.path))
    }

    /// As ``contentHashes(of:)``, the SHA-256 of its bytes known.
    func contentHashes(of inEffect: DatabaseInEffect, bytes digest: String) -> Set<String> {
        var hashes: Set<String> = [digest]
        if inEffect.isInstalledUpdate, let record = FileManager.default.contents(atPath: contentRecordPath) {
            let fields = String(decoding: record, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            if fields.count == 2, fields[0] == digest { hashes.insert(fields[1]) }
        }
        return hashes
    }

    /// Runs a file-system call, turning its error into a ``LayeredDatabaseError``.
    static func fileSystem<T>(_ call: () throws -> T) throws -> T {
        do {
            return try call()
        } catch let error as FileSystemError {
            throw LayeredDatabaseError(error)
        }
    }
}

extension LayeredDatabaseError {
    /// ``fileSystem(path:operation:errno:)`` for a failed file-system call.
    init(_ error: FileSystemError) {
        self = .fileSystem(path: error.path, operation: error.operation.rawValue, errno: error.code)
    }
}
