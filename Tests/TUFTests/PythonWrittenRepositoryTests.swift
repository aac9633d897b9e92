import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// A repository that python-tuf's Metadata API writes (ed25519 and ecdsa keys, a root rotation, a
/// delegation with a path pattern, custom and unknown fields) is read and verified by the Swift client.
final class PythonWrittenRepositoryTests: XCTestCase {
    static let writer = """
        import os, sys
        from datetime import datetime, timedelta, timezone
        from securesystemslib.signer import CryptoSigner
        from tuf.api.metadata import (Metadata, Root, Timestamp, Snapshot, Targets, MetaFile, TargetFile,
            Delegations, DelegatedRole, TOP_LEVEL_ROLE_NAMES)
        from tuf.api.serialization.json import JSONSerializer

        out = sys.argv[1]
        meta_dir, targets_dir = os.path.join(out, "metadata"), os.path.join(out, "targets")
        os.makedirs(os.path.join(targets_dir, "data"))
        expiry = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=7)
        serializer = JSONSerializer(compact=False)
        signers = {role: CryptoSigner.generate_ed25519() for role in TOP_LEVEL_ROLE_NAMES}
        signers["snapshot"] = CryptoSigner.generate_ecdsa()

        def write(md, name, *signers_):
            for s in signers_:
                md.sign(s, append=True)
            data = md.to_bytes(serializer)
            with open(os.path.join(meta_dir, name), "wb") as f:
                f.write(data)
            return data

        def add_target(targets, path, data):
            targets.targets[path] = TargetFile.from_data(path, data, ["sha256", "sha512"])
            d, _, base = path.rpartition("/")
            with open(os.path.join(targets_dir, d, targets.targets[path].hashes["sha256"] + "." + base), "wb") as f:
                f.write(data)

        os.makedirs(meta_dir)
        root = Root(expires=expiry, consistent_snapshot=True)
        for role, s in signers.items():
            root.add_key(s.public_key, role)
        root.unrecognized_fields["x-shipyard-test"] = {"nested": [1, "\\u00e9", None]}
        write(Metadata(root), "1.root.json", signers["root"])

        # Root rotation: version 2 has a new root key and is signed by the old and the new one.
        new_root_signer = CryptoSigner.generate_ed25519()
        root.revoke_key(signers["root"].public_key.keyid, "root")
        root.add_key(new_root_signer.public_key, "root")
        root.version = 2
        write(Metadata(root), "2.root.json", signers["root"], new_root_signer)

        delegate = CryptoSigner.generate_ed25519()
        targets = Targets(expires=expiry)
        add_target(targets, "top.txt", b"top-level target\\n")
        targets.targets["top.txt"].unrecognized_fields["custom"] = {"user_version": 7, "channel": "beta"}
        targets.delegations = Delegations(
            keys={delegate.public_key.keyid: delegate.public_key},
            roles={"data-role": DelegatedRole("data-role", [delegate.public_key.keyid], 1, True, ["data/*.db"])},
        )
        write(Metadata(targets), "1.targets.json", signers["targets"])

        delegated = Targets(expires=expiry)
        add_target(delegated, "data/food.db", b"a delegated target\\n")
        write(Metadata(delegated), "1.data-role.json", delegate)

        snapshot = Snapshot(expires=expiry)
        snapshot.meta["targets.json"] = MetaFile(1)
        snapshot.meta["data-role.json"] = MetaFile(1)
        snapshot_bytes = write(Metadata(snapshot), "1.snapshot.json", signers["snapshot"])

        timestamp = Timestamp(expires=expiry)
        timestamp.snapshot_meta = MetaFile.from_data(1, snapshot_bytes, ["sha256"])
        write(Metadata(timestamp), "timestamp.json", signers["timestamp"])
        """

    func testSwiftClientReadsAndVerifiesPythonTUFsRepository() throws {
        let repository = try TemporaryDirectory("python-tuf-repository", removedAfter: self)
        _ = try PythonTUF.run(Self.writer, [repository.path])
        let client = try TemporaryDirectory("swift-client", removedAfter: self)
        let updater = try Updater(
            metadataDirectory: client.url, metadataBaseURL: repository.url("metadata"),
            targetBaseURL: repository.url("targets"), fetcher: FileFetcher(),
            bootstrapRoot: try Data(contentsOf: repository.url("metadata/1.root.json"))
        )
        try synchronously { try await updater.refresh() }
        XCTAssertEqual(updater.trusted.root.header.version, 2)
        XCTAssertEqual(updater.trusted.snapshot?.header.version, 1)

        let top = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "top.txt") })
        XCTAssertEqual(top.custom, .object(JSONObject([("user_version", .integer(7)), ("channel", .string("beta"))])))
        XCTAssertEqual(top.hashes.map(\.algorithm), ["sha256", "sha512"])
        let downloads = try TemporaryDirectory("swift-downloads", removedAfter: self)
        let topFile = try synchronously { try await updater.download(top, to: downloads.url) }
        XCTAssertEqual(try Data(contentsOf: topFile), Data("top-level target\n".utf8))

        let delegated = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "data/food.db") })
        let file = try synchronously { try await updater.download(delegated, to: downloads.url) }
        XCTAssertEqual(try Data(contentsOf: file), Data("a delegated target\n".utf8))
        XCTAssertEqual(file.lastPathComponent, "data%2Ffood.db")
        XCTAssertNil(try synchronously { try await updater.targetInfo(for: "data/other.txt") })

        let stored = try FileManager.default.contentsOfDirectory(atPath: client.path).sorted()
        XCTAssertEqual(stored, ["data-role.json", "root.json", "snapshot.json", "targets.json", "timestamp.json"])
    }
}
