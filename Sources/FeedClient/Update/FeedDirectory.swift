import EssentialsSupport
import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import EssentialsSupport

/// The client's files in the updates directory, `DIR/.feed/`:
/// - `metadata/`: the trusted metadata (`root.json`, `timestamp.json`, `snapshot.json`,
///   `targets.json`), written only after an install or a check that installs nothing;
/// - `metadata.staged/`: a copy the TUF updater refreshes during a check, moved into
///   `metadata/` file by file (each rename atomic) once the install is done, with the ETag of
///   the timestamp it fetched (`timestamp.etag`);
/// - `staging/`: downloads, resumable across launches;
/// - `rollout-bucket`: a random number in [0, 1), created once and never sent;
/// - `timestamp.etag`: `SHA256 ETAG`, the ETag of the stored timestamp (whose SHA-256 is
///   given, so an ETag is never sent for another timestamp than the one it came with);
/// - `data-epoch`: the ``DataEpoch`` the installed data came under (absent: 0), written before
///   anything of a newer epoch is installed;
/// - `update.lock`: held while a check or an update runs, so two never overlap.
struct FeedDirectory: Sendable {
    let root: URL

    init(updatesDirectory: String) {
        root = URL(fileURLWithPath: updatesDirectory).appendingPathComponent(".feed")
    }

    var metadata: URL { root.appendingPathComponent("metadata") }
    var stagedMetadata: URL { root.appendingPathComponent("metadata.staged") }
    var staging: URL { root.appendingPathComponent("staging") }
    var bucketFile: URL { root.appendingPathComponent("rollout-bucket") }
    var etagFile: URL { root.appendingPathComponent("timestamp.etag") }
    var stagedETagFile: URL { stagedMetadata.appendingPathComponent("timestamp.etag") }
    var lockFile: URL { root.appendingPathComponent("update.lock") }
    var epochFile: URL { root.appendingPathComponent("data-epoch") }

    /// The roles in the order they are committed: root first, the timestamp last (its ETag
    /// after it), so a crash between two renames leaves documents that each verify.
    static let commitOrder = ["root.json", "targets.json", "snapshot.json", "timestamp.json"]

    /// Creates `DIR/.feed/metadata` and `DIR/.feed/staging` when missing.
    func prepare() throws {
        for directory in [metadata, staging] {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw FeedUpdateError(subject: directory.path, check: .storage, reason: "cannot create it: \(error)")
            }
        }
    }

    /// Takes the directory's lock, waiting (without blocking a thread) while another check or
    /// update holds it.
    func lock() async throws -> SidecarLock {
        while true {
            do {
                if let lock = try SidecarLock.acquireIfFree(at: lockFile.path) { return lock }
            } catch let error as FileSystemError {
                throw FeedUpdateError(subject: lockFile.path, check: .storage, reason: "\(error)")
            }
            if Task.isCancelled { throw FeedUpdateError(subject: "feed", check: .cancelled, reason: "cancelled") }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// The rollout bucket: read, or drawn and kept on the first run (or when unreadable).
    func rolloutBucket() throws -> Double {
        if let data = FileManager.default.contents(atPath: bucketFile.path),
            let value = Double(String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()),
            value >= 0, value < 1
        {
            return value
        }
        let value = Double.random(in: 0..<1)
        try storage(bucketFile) { try AtomicFile.replace(bucketFile.path, with: Data("\(value)\n".utf8), tag: "tmp") }
        return value
    }

    /// The data epoch the installed data came under: 0 when none is recorded (or the record is
    /// unreadable, which at worst removes an installed update the next install puts back).
    func recordedEpoch() -> Int64 {
        guard let data = FileManager.default.contents(atPath: epochFile.path),
            let epoch = Int64(String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()),
            epoch >= 0
        else { return 0 }
        return epoch
    }

    /// Records the data epoch of what is installed from now on (atomically and durably).
    func recordEpoch(_ epoch: Int64) throws {
        try storage(epochFile) { try AtomicFile.replace(epochFile.path, with: Data("\(epoch)\n".utf8), tag: "tmp") }
    }

    /// A fresh copy of the trusted metadata in `metadata.staged/`; returns whether there was
    /// any (false: the first run, which trusts the bundled root).
    func stageMetadata() throws -> Bool {
        discardStagedMetadata()
        try storage(stagedMetadata) {
            try FileManager.default.createDirectory(at: stagedMetadata, withIntermediateDirectories: true)
        }
        var copied = false
        for name in Self.commitOrder {
            let source = metadata.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: source.path) else { continue }
            try storage(stagedMetadata) {
                try data.write(to: stagedMetadata.appendingPathComponent(name))
            }
            copied = copied || name == "root.json"
        }
        return copied
    }

    /// Removes the staged copy (a check that failed: nothing of a refused document stays).
    func discardStagedMetadata() {
        try? FileManager.default.removeItem(at: stagedMetadata)
    }

    /// The stored timestamp's bytes and its ETag (nil when the ETag is missing or belongs to
    /// other bytes).
    func storedTimestamp() -> (data: Data, etag: String?)? {
        guard let data = FileManager.default.contents(atPath: metadata.appendingPathComponent("timestamp.json").path)
        else { return nil }
        guard let record = FileManager.default.contents(atPath: etagFile.path) else { return (data, nil) }
        let text = String(decoding: record, as: UTF8.self).trimmingNewlines()
        guard let space = text.firstIndex(of: " "), String(text[..<space]) == SHA256Stream.hex(of: data) else {
            return (data, nil)
        }
        return (data, String(text[text.index(after: space)...]))
    }

    /// Keeps the ETag the staged timestamp came with (removes it for nil).
    func stageETag(_ etag: String?, of timestamp: Data) throws {
        guard let etag, !etag.contains("\n") else {
            unlink(stagedETagFile.path)
            return
        }
        let record = Data("\(SHA256Stream.hex(of: timestamp)) \(etag)\n".utf8)
        try storage(stagedETagFile) { try record.write(to: stagedETagFile) }
    }

    /// The SHA-256 of the staged timestamp: the identity of a check's metadata.
    func stagedTimestampIdentity() -> String? {
        FileManager.default.contents(atPath: stagedMetadata.appendingPathComponent("timestamp.json").path)
            .map(SHA256Stream.hex(of:))
    }

    /// Moves the staged metadata into `metadata/`, one atomic rename per document, then its ETag.
    func commitMetadata() throws {
        unlink(etagFile.path)
        for name in Self.commitOrder {
            let source = stagedMetadata.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let destination = metadata.appendingPathComponent(name)
            try storage(destination) { try AtomicFile.moveIntoPlace(source.path, as: destination.path) }
        }
        if FileManager.default.fileExists(atPath: stagedETagFile.path) {
            try storage(etagFile) { try AtomicFile.moveIntoPlace(stagedETagFile.path, as: etagFile.path) }
        }
        discardStagedMetadata()
    }

    /// Runs a file-system call, its failure a `storage` error naming `file`.
    private func storage<T>(_ file: URL, _ call: () throws -> T) throws -> T {
        do {
            return try call()
        } catch let error as FileSystemError {
            throw FeedUpdateError(subject: error.path, check: .storage, reason: "\(error)")
        } catch {
            throw FeedUpdateError(subject: file.path, check: .storage, reason: "\(error)")
        }
    }
}

extension SHA256Stream {
    /// The SHA-256 of `data`, in lowercase hex.
    static func hex(of data: Data) -> String {
        var stream = SHA256Stream()
        data.withUnsafeBytes { stream.update($0) }
        return stream.hexDigest()
    }
}
