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

/// The metadata the client trusts, updated only by the rules of the TUF specification's client workflow
/// (sections 5.3 to 5.6): each update verifies the new document against what is already trusted and either
/// becomes trusted or throws, leaving the set as it was (but for the documents kept for rollback checks,
/// as the specification says).
///
/// The order is fixed: root (any number of times), then timestamp, snapshot, targets, delegated targets.
/// Expiry is checked against one reference time, taken when the set is created.
public struct TrustedMetadataSet: Sendable {
    /// The time expiry is checked against.
    public let referenceTime: Date
    /// The trusted root.
    public private(set) var root: Root
    /// The trusted timestamp, if any (possibly expired, kept only to refuse a rollback).
    public private(set) var timestamp: Timestamp?
    /// The trusted snapshot, if any (possibly not final, kept only to refuse a rollback).
    public private(set) var snapshot: Snapshot?
    /// Trusted targets documents by role name (`targets` and delegated roles).
    public private(set) var targets: [String: Targets] = [:]
    /// Who delegated each trusted targets role.
    public private(set) var delegators: [String: String] = [:]
    private var rootMetadata: Metadata

    /// Trusts a root the application provides (5.2): it must be signed by its own root keys; expiry is not
    /// checked (a newer root may follow). `referenceTime` is 5.1's fixed update start time.
    public init(root data: Data, referenceTime: Date = Date(), maximumBytes: Int = 512_000) throws {
        let metadata = try Metadata(data: data, document: "root.json", maximumBytes: maximumBytes)
        let root = try Self.load(Root.self, metadata, expected: Root.type, parse: Root.init)
        try ThresholdVerification.verify(metadata, role: Root.type, roleKeys: root.roles.root, keys: root.keys)
        self.root = root
        self.rootMetadata = metadata
        self.referenceTime = referenceTime
    }

    private static func load<Role>(
        _: Role.Type, _ metadata: Metadata, expected type: String, parse: (Metadata) throws -> Role
    ) throws -> Role {
        guard metadata.header.type == type else {
            throw TUFError.wrongType(document: metadata.document, expected: type, found: metadata.header.type)
        }
        return try parse(metadata)
    }

    /// 5.3: trusts the next root, which must be signed by the current root's root keys and by its own,
    /// and be exactly one version newer.
    public mutating func updateRoot(_ data: Data, document: String, maximumBytes: Int = 512_000) throws {
        guard timestamp == nil else { throw TUFError.outOfOrder("root after timestamp") }
        let metadata = try Metadata(data: data, document: document, maximumBytes: maximumBytes)
        let newRoot = try Self.load(Root.self, metadata, expected: Root.type, parse: Root.init)
        // 5.3.4: a threshold of the trusted root's root keys (each key counted once)…
        try ThresholdVerification.verify(metadata, role: Root.type, roleKeys: root.roles.root, keys: root.keys)
        // 5.3.5: exactly version N+1 (5.3.6: its expiry is checked later, 5.3.10).
        guard newRoot.header.version == root.header.version + 1 else {
            throw TUFError.versionMismatch(
                document: document, expected: root.header.version + 1, received: newRoot.header.version
            )
        }
        // 5.3.4: …and a threshold of its own root keys.
        try ThresholdVerification.verify(
            metadata, role: Root.type, roleKeys: newRoot.roles.root, keys: newRoot.keys
        )
        // 5.3.7: the new root is trusted.
        root = newRoot
        rootMetadata = metadata
    }

    /// 5.4: trusts a timestamp signed by root's timestamp keys, of a version (and a snapshot version) not
    /// below the trusted ones. Throws `sameVersion` when it is the trusted version (nothing new), and
    /// `expired` after keeping an expired one for rollback checks.
    public mutating func updateTimestamp(_ data: Data, maximumBytes: Int = 16_384) throws {
        guard snapshot == nil else { throw TUFError.outOfOrder("timestamp after snapshot") }
        // 5.3.10: the final root is not expired (checked once the chain is followed).
        guard !root.header.isExpired(at: referenceTime) else {
            throw TUFError.expired(document: "root.json", expires: root.header.expiresText)
        }
        let metadata = try Metadata(data: data, document: "timestamp.json", maximumBytes: maximumBytes)
        let new = try Self.load(Timestamp.self, metadata, expected: Timestamp.type, parse: Timestamp.init)
        // 5.4.2: a threshold of root's timestamp keys.
        try ThresholdVerification.verify(
            metadata, role: Timestamp.type, roleKeys: root.roles.timestamp, keys: root.keys
        )
        // 5.4.3.1: not below the trusted version (the same version: nothing new); 5.4.3.2: the
        // snapshot version it names not below the trusted timestamp's.
        if let timestamp {
            if new.header.version < timestamp.header.version {
                throw TUFError.rollback(
                    document: "timestamp.json", trusted: timestamp.header.version, received: new.header.version
                )
            }
            if new.header.version == timestamp.header.version {
                throw TUFError.sameVersion(document: "timestamp.json", version: new.header.version)
            }
            if new.snapshotMeta.version < timestamp.snapshotMeta.version {
                throw TUFError.rollback(
                    document: "snapshot.json", trusted: timestamp.snapshotMeta.version,
                    received: new.snapshotMeta.version
                )
            }
        }
        // 5.4.4: kept even if expired (for the next rollback check), then the freeze check.
        timestamp = new
        try checkFinalTimestamp()
    }

    private func checkFinalTimestamp() throws {
        guard let timestamp else { throw TUFError.outOfOrder("no timestamp") }
        if timestamp.header.isExpired(at: referenceTime) {
            throw TUFError.expired(document: "timestamp.json", expires: timestamp.header.expiresText)
        }
    }

    /// 5.5: trusts a snapshot matching the timestamp's length and hashes (unless `trusted`, for the copy
    /// kept locally), signed by root's snapshot keys, listing every targets document the trusted snapshot
    /// lists at no lower version. Throws `expired` or `versionMismatch` (not the timestamp's version)
    /// after keeping it for rollback checks.
    public mutating func updateSnapshot(_ data: Data, trusted: Bool = false, maximumBytes: Int = 2_000_000) throws {
        guard let timestamp else { throw TUFError.outOfOrder("snapshot before timestamp") }
        guard targets.isEmpty else { throw TUFError.outOfOrder("snapshot after targets") }
        try checkFinalTimestamp()
        // 5.5.2: the timestamp's length and hashes, before the bytes are parsed.
        if !trusted { try timestamp.snapshotMeta.verify(data, document: "snapshot.json") }
        let metadata = try Metadata(data: data, document: "snapshot.json", maximumBytes: maximumBytes)
        let new = try Self.load(Snapshot.self, metadata, expected: Snapshot.type, parse: Snapshot.init)
        // 5.5.3: a threshold of root's snapshot keys.
        try ThresholdVerification.verify(
            metadata, role: Snapshot.type, roleKeys: root.roles.snapshot, keys: root.keys
        )
        // 5.5.5: every targets document the trusted snapshot lists is still listed, at no lower version.
        if let snapshot {
            for (name, file) in snapshot.meta {
                guard let newFile = new.meta[name] else {
                    throw TUFError.missingMeta(document: "snapshot.json", reason: "\(name) is no longer listed")
                }
                if newFile.version < file.version {
                    throw TUFError.rollback(document: name, trusted: file.version, received: newFile.version)
                }
            }
        }
        // 5.5.4 and 5.5.6, after it is kept for the next rollback check: the timestamp's
        // version, and not expired.
        snapshot = new
        try checkFinalSnapshot()
    }

    private func checkFinalSnapshot() throws {
        guard let snapshot, let timestamp else { throw TUFError.outOfOrder("no snapshot") }
        if snapshot.header.isExpired(at: referenceTime) {
            throw TUFError.expired(document: "snapshot.json", expires: snapshot.header.expiresText)
        }
        if snapshot.header.version != timestamp.snapshotMeta.version {
            throw TUFError.versionMismatch(
                document: "snapshot.json", expected: timestamp.snapshotMeta.version, received: snapshot.header.version
            )
        }
    }

    /// 5.6: trusts a targets document (`targets`, delegated by root, or a role delegated by a trusted
    /// targets role): its bytes must match the snapshot's length and hashes, its version the snapshot's,
    /// it must be signed by the delegator's keys for the role, and not be expired.
    @discardableResult
    public mutating func updateTargets(
        _ data: Data, role: String, delegator: String, maximumBytes: Int = 5_000_000
    ) throws -> Targets {
        guard let snapshot else { throw TUFError.outOfOrder("targets before snapshot") }
        try checkFinalSnapshot()
        let roleKeys: RoleKeys, keys: [String: PublicKey]
        if delegator == Root.type {
            guard role == Targets.type else { throw TUFError.outOfOrder("root delegates only targets") }
            roleKeys = root.roles.targets
            keys = root.keys
        } else {
            guard let parent = targets[delegator] else { throw TUFError.outOfOrder("\(delegator) is not trusted") }
            guard let delegations = parent.delegations, let delegated = delegations.roleKeys(for: role) else {
                throw TUFError.missingMeta(document: "\(delegator).json", reason: "no delegation to \(role)")
            }
            roleKeys = delegated
            keys = delegations.keys
        }
        // 5.6.7.2: a delegated role is verified with the keys its delegator names for it.
        let document = "\(role).json"
        guard let meta = snapshot.meta[document] else {
            throw TUFError.missingMeta(document: "snapshot.json", reason: "\(document) is not listed")
        }
        // 5.6.2: the snapshot's length and hashes (if it gives them), before the bytes are parsed.
        try meta.verify(data, document: document)
        let metadata = try Metadata(data: data, document: document, maximumBytes: maximumBytes)
        let new = try Self.load(Targets.self, metadata, expected: Targets.type, parse: Targets.init)
        // 5.6.3: a threshold of the delegator's keys for the role.
        try ThresholdVerification.verify(metadata, role: role, roleKeys: roleKeys, keys: keys)
        // 5.6.4: the snapshot's version.
        if new.header.version != meta.version {
            throw TUFError.versionMismatch(document: document, expected: meta.version, received: new.header.version)
        }
        // 5.6.5: not expired.
        if new.header.isExpired(at: referenceTime) {
            throw TUFError.expired(document: document, expires: new.header.expiresText)
        }
        targets[role] = new
        delegators[role] = delegator
        return new
    }
}
