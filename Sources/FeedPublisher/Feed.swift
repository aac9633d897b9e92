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
import TUF
import EssentialsSupport

/// A feed directory on the release machine: a TUF repository (consistent snapshots, one main
/// Ed25519 key for every role, threshold 1, and optional recovery keys for the root role only)
/// whose targets are Shipyard's releases and patches.
///
/// ```swift
/// let feed = Feed(directory: "feed", clock: try FeedClock.current())
/// try feed.initialize(key: key)
/// let summary = try feed.publish("food-v2.sqlite", key: key, keySource: "release.key", options: PublishOptions())
/// ```
///
/// Every command that changes a feed holds its lock (`FEED/.feed.lock`), so two at once run one
/// after the other, and writes each document atomically, in an order that leaves a feed that
/// verifies after a kill at any moment (``MetadataWriter``).
public struct Feed: Sendable {
    /// Where the feed's files are.
    public let layout: FeedLayout
    /// The dates signed.
    public var clock: FeedClock

    /// The feed at `directory`.
    public init(directory: String, clock: FeedClock) {
        layout = FeedLayout(directory: directory)
        self.clock = clock
    }

    var writer: MetadataWriter { MetadataWriter(layout: layout, clock: clock) }

    /// Creates a feed in a new or empty directory: root version 1 naming `key` for all four
    /// roles and each of `recoveryKeys` for the root role only (`1.root.json`, `root.json`), and
    /// an empty targets, snapshot and timestamp, so that the feed verifies and a client finds
    /// nothing new.
    ///
    /// - Throws: ``FeedPublisherError`` naming the directory when it is not empty or cannot be
    ///   created, or `--recovery-key` when one is `key`'s public key.
    public func initialize(key: Ed25519SigningKey, recoveryKeys: [PublicKey] = []) throws {
        try clock.validate()
        let recovery = try RecoveryKey.distinct(recoveryKeys, refusing: [key.keyID])
        let directory = layout.directory
        if let isDirectory = FileManager.default.isDirectory(atPath: directory) {
            guard isDirectory else {
                throw FeedPublisherError(
                    directory, "a file, not a directory: a feed is created in a new or empty directory")
            }
            let entries = try FeedPublisherError.about(directory) {
                try FileManager.default.contentsOfDirectory(atPath: directory)
            }
            guard entries.isEmpty else {
                throw FeedPublisherError(directory, "not empty: a feed is created in a new or empty directory")
            }
        } else {
            try FeedPublisherError.about(directory) {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
        }
        try withLock(creating: true) {
            try writer.writeRoot(version: 1, naming: key, recovery: recovery, dataEpoch: 0, signedBy: [key])
            try writer.publish(targets: [], targetsVersion: 1, snapshotVersion: 1, timestampVersion: 1, signedBy: [key])
        }
    }

    /// Runs `body` holding the feed's lock, in a fresh scratch directory (`.feed-work`, removed
    /// before and after: one a killed command left is stale once the lock is held), after
    /// checking the clock and, unless `creating`, that there is a feed.
    func withLock<T>(creating: Bool = false, _ body: () throws -> T) throws -> T {
        try clock.validate()
        if !creating { try layout.requireFeed() }
        let lock = try FeedPublisherError.about(layout.directory) { try SidecarLock.acquire(at: layout.lockPath) }
        defer { lock.release() }
        try? FileManager.default.removeItem(atPath: layout.workPath)
        defer { try? FileManager.default.removeItem(atPath: layout.workPath) }
        removeStaleTemporaries()
        return try body()
    }

    /// Removes the temporaries (`.NAME.tmp-XXXXXX`) of documents a killed command was writing:
    /// with the lock held, nobody else is writing one.
    private func removeStaleTemporaries() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: layout.directory)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".json") == false {
            guard let marker = name.range(ofLastText: ".json.tmp-"),
                name[marker.upperBound...].count == 6
            else { continue }
            try? FileManager.default.removeItem(atPath: layout.path(name))
        }
    }

    /// Creates the scratch directory (on the feed's file system, so files move into place by rename).
    func makeWorkDirectory() throws -> String {
        let path = layout.workPath
        try FeedPublisherError.about(path) {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        return path
    }
}
