import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// The search for a target through a graph of delegations (the specification's 5.6.7), on the
/// graphs python-tuf's own tests walk: pre-order depth first in the order each delegator lists
/// its roles, roles visited once (cycles, a role two delegators name), terminating delegations,
/// path patterns and hash prefixes, succinct hash bins (TAP 15), the bound on delegations, a
/// role whose document is not signed, role names that must be quoted. python-tuf writes each
/// repository and its client (ngclient's `Updater`) searches it first: the Swift updater must
/// fetch the same documents in the same order, keep the same ones, and find the same target
/// (or fail where it fails).
final class DelegationGraphTests: XCTestCase {
    /// A delegation: `delegator` names `role`, trusted for `paths` (shell patterns) or for the
    /// paths whose SHA-256 starts with one of `hashPrefixes`.
    struct Delegation: Encodable {
        var delegator: String
        var role: String
        var terminating = false
        var paths: [String]? = ["*"]
        var hashPrefixes: [String]?
        /// The delegator lists another key than the one that signs the role.
        var foreignKey = false

        init(_ delegator: String, _ role: String, terminating: Bool = false, paths: [String]? = ["*"]) {
            self.delegator = delegator
            self.role = role
            self.terminating = terminating
            self.paths = paths
        }
    }

    /// A graph, the targets its roles list, and the paths looked up (each by a new client).
    struct Graph: Encodable {
        var name: String
        var delegations: [Delegation] = []
        /// `role`, `path`: a target the role lists.
        var targets: [[String]] = []
        /// Succinct hash bins (TAP 15) that `succinctDelegator` delegates to: `bitLength`.
        var succinct: [String: Int]?
        var succinctDelegator = "targets"
        var lookups = ["missingpath"]
        var maximumDelegations = 32
        /// Roles whose document is signed by a key the delegation does not name.
        var unsigned: [String] = []
    }

    /// python-tuf's graphs (tests/test_updater_delegation_graphs.py), and the cases that tell
    /// the rules of 5.6.7.1 apart.
    static let graphs: [Graph] = [
        Graph(name: "basic delegation", delegations: [Delegation("targets", "A")]),
        Graph(name: "single level", delegations: [Delegation("targets", "A"), Delegation("targets", "B")]),
        Graph(
            name: "two levels",
            delegations: [Delegation("targets", "A"), Delegation("targets", "B"), Delegation("B", "C")]),
        Graph(
            name: "depth first",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("A", "C"), Delegation("A", "D"),
            ]),
        Graph(
            name: "three levels depth first",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("A", "C"), Delegation("C", "D"),
            ]),
        Graph(
            name: "terminating ends the search outside the role's descendants",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("A", "C", terminating: true),
                Delegation("A", "D"),
            ]),
        Graph(
            name: "terminating keeps the role's own descendants",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("A", "C", terminating: true),
                Delegation("C", "D"),
            ]),
        Graph(
            name: "a branch whose paths do not match is not visited",
            delegations: [
                Delegation("targets", "A", paths: ["*.py"]), Delegation("targets", "B"), Delegation("A", "C"),
            ]),
        Graph(
            name: "a deeper branch whose paths do not match is not visited",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("A", "C", paths: ["*.py"]),
                Delegation("C", "D"),
            ]),
        Graph(
            name: "a cycle is visited once",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("B", "C"), Delegation("C", "D"),
                Delegation("D", "B"),
            ]),
        Graph(
            name: "two delegators of one role",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("B", "C"), Delegation("A", "C"),
            ]),
        Graph(
            name: "two delegators of one role, one not for the path",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("B", "C"),
                Delegation("A", "C", paths: ["*.py"]),
            ]),
        Graph(
            name: "a role reached again is skipped, not verified again under the second delegator's keys",
            delegations: {
                var second = Delegation("B", "C")
                second.foreignKey = true
                return [Delegation("targets", "A"), Delegation("targets", "B"), Delegation("A", "C"), second]
            }()),
        Graph(
            name: "the bound on delegations",
            delegations: [
                Delegation("targets", "A"), Delegation("targets", "B"), Delegation("targets", "C"),
                Delegation("C", "D"), Delegation("C", "E"),
            ],
            maximumDelegations: 4),
        Graph(
            name: "a role signed by another key ends the search",
            delegations: [Delegation("targets", "invalid"), Delegation("targets", "B"), Delegation("invalid", "C")],
            unsigned: ["invalid"]),
        Graph(
            name: "role names quoted in file names and URLs",
            delegations: ["../a", ".", "/", "ö"].map { Delegation("targets", $0) }, lookups: ["anything"]),
        Graph(
            name: "hash prefixes",
            delegations: [
                ("role1", ["8", "9", "a", "b"]), ("role2", ["0", "1", "2", "3"]), ("role3", ["c", "d", "e", "f"]),
            ].map { role, prefixes in
                var delegation = Delegation("targets", role, paths: nil)
                delegation.hashPrefixes = prefixes
                return delegation
            },
            lookups: ["missingpath", "othermissingpath", "thirdmissingpath"]),
        Graph(
            name: "succinct hash bins", succinct: ["bitLength": 2],
            lookups: ["foo", "doo", "missingpath", "bar", "othermissingpath"]),
        Graph(name: "many succinct hash bins", succinct: ["bitLength": 8], lookups: ["bar", "missingpath"]),
        Graph(
            name: "a succinct delegation is terminating",
            delegations: [Delegation("targets", "A"), Delegation("targets", "B")],
            targets: [["B", "b.txt"]], succinct: ["bitLength": 1], succinctDelegator: "A", lookups: ["b.txt"]),
        Graph(
            name: "targets found along the way",
            delegations: [
                Delegation("targets", "A", paths: ["*.doc", "*.md", "foo-?.tgz"]),
                Delegation("targets", "B", paths: ["releases/*/*"]), Delegation("B", "C", paths: ["releases/x/*"]),
                Delegation("B", "D", paths: ["releases/y/*.zip"]),
            ],
            targets: [
                ["targets", "targetfile"], ["A", "README.md"], ["A", "releases/README.md"], ["A", "foo-1.tgz"],
                ["A", "foo-alpha.tgz"], ["C", "releases/x/x_v1"], ["D", "releases/y/y_v1.zip"],
                ["D", "releases/z/z_v1.zip"],
            ],
            lookups: [
                "targetfile", "README.md", "releases/x/x_v1", "releases/y/y_v1.zip", "releases/z/z_v1.zip",
                "releases/README.md", "foo-1.tgz", "foo-alpha.tgz",
            ]),
    ]

    /// python-tuf's side: writes each graph's repository under `argv[1]/INDEX/metadata` with its
    /// Metadata API (consistent snapshots, one key per role, every document at version 1) and
    /// searches it with ngclient's `Updater` as the Swift test does; prints, by graph name, what
    /// each lookup did.
    static let oracle = """
        import json, os, sys, tempfile
        from datetime import datetime, timedelta, timezone
        from urllib import parse
        from securesystemslib.signer import CryptoSigner
        from tuf.api.exceptions import DownloadHTTPError
        from tuf.api.metadata import (Metadata, Root, Timestamp, Snapshot, Targets, MetaFile, TargetFile,
            Delegations, DelegatedRole, SuccinctRoles, TOP_LEVEL_ROLE_NAMES)
        from tuf.ngclient import Updater, UpdaterConfig
        from tuf.ngclient.fetcher import FetcherInterface

        out = sys.argv[1]
        graphs = json.load(sys.stdin)
        expiry = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=7)

        class ServedFiles(FetcherInterface):
            def __init__(self, directory):
                self.directory, self.names = directory, []
            def _fetch(self, url):
                name = url.rsplit("/", 1)[-1]
                self.names.append(name)
                path = os.path.join(self.directory, name)
                if not os.path.exists(path):
                    raise DownloadHTTPError(f"{url} not found", 404)
                with open(path, "rb") as f:
                    yield f.read()

        def build(meta, graph):
            os.makedirs(meta)
            top, foreign = CryptoSigner.generate_ed25519(), CryptoSigner.generate_ed25519()
            root = Root(expires=expiry, consistent_snapshot=True)
            for role in TOP_LEVEL_ROLE_NAMES:
                root.add_key(top.public_key, role)
            roles, signers = {"targets": Targets(expires=expiry)}, {"targets": top}
            for d in graph["delegations"]:
                if d["role"] not in roles:
                    roles[d["role"]], signers[d["role"]] = Targets(expires=expiry), CryptoSigner.generate_ed25519()
                delegator = roles[d["delegator"]]
                key = foreign if d.get("foreignKey") else signers[d["role"]]
                if delegator.delegations is None:
                    delegator.delegations = Delegations(keys={}, roles={})
                delegator.delegations.keys[key.public_key.keyid] = key.public_key
                delegator.delegations.roles[d["role"]] = DelegatedRole(
                    d["role"], [key.public_key.keyid], 1, d.get("terminating", False), d.get("paths"),
                    d.get("hashPrefixes"))
            if graph.get("succinct"):
                bins = CryptoSigner.generate_ed25519()
                succinct = SuccinctRoles([bins.public_key.keyid], 1, graph["succinct"]["bitLength"], "bin")
                roles[graph["succinctDelegator"]].delegations = Delegations(
                    keys={bins.public_key.keyid: bins.public_key}, succinct_roles=succinct)
                for name in succinct.get_roles():
                    roles[name], signers[name] = Targets(expires=expiry), bins
            for role, path in graph["targets"]:
                roles[role].targets[path] = TargetFile.from_data(path, f"{role}: {path}".encode())
            snapshot = Snapshot(expires=expiry)
            for role, targets in roles.items():
                signer = foreign if role in graph["unsigned"] else signers[role]
                document = Metadata(targets)
                document.sign(signer)
                document.to_file(os.path.join(meta, f"1.{parse.quote(role, '')}.json"))
                snapshot.meta[f"{role}.json"] = MetaFile(1)
            for signed, name in [(root, "1.root.json"), (snapshot, "1.snapshot.json")]:
                document = Metadata(signed)
                document.sign(top)
                document.to_file(os.path.join(meta, name))
            timestamp = Timestamp(expires=expiry)
            timestamp.snapshot_meta = MetaFile(1)
            document = Metadata(timestamp)
            document.sign(top)
            document.to_file(os.path.join(meta, "timestamp.json"))

        def search(directory, meta, path, maximum):
            client = tempfile.mkdtemp(dir=directory)
            with open(os.path.join(meta, "1.root.json"), "rb") as f:
                bootstrap = f.read()
            fetcher = ServedFiles(meta)
            updater = Updater(client, "https://tuf.invalid/metadata/", None, "https://tuf.invalid/targets/",
                              fetcher=fetcher, config=UpdaterConfig(max_delegations=maximum), bootstrap=bootstrap)
            updater.refresh()
            fetcher.names.clear()
            lookup = {"found": None, "failed": False}
            try:
                target = updater.get_targetinfo(path)
                lookup["found"] = None if target is None else target.length
            except Exception:
                lookup["failed"] = True
            lookup["fetched"] = fetcher.names
            lookup["kept"] = sorted(name for name in os.listdir(client) if name.endswith(".json"))
            return lookup

        results = {}
        for index, graph in enumerate(graphs):
            directory = os.path.join(out, str(index))
            meta = os.path.join(directory, "metadata")
            build(meta, graph)
            results[graph["name"]] = [search(directory, meta, path, graph["maximumDelegations"]) for path in graph["lookups"]]
        print(json.dumps(results))
        """

    /// What a client did for one lookup: the documents it fetched after its refresh (file
    /// names as served), whether it found the target (its length) or failed, and the documents
    /// it keeps afterwards (python-tuf's `root_history/` of earlier roots aside).
    struct Lookup: Decodable, Equatable, CustomStringConvertible {
        var fetched: [String]
        var found: Int64?
        var failed: Bool
        var kept: [String]

        var description: String {
            "fetched \(fetched), " + (failed ? "failed" : found.map { "found (\($0) bytes)" } ?? "not found")
                + ", kept \(kept)"
        }
    }

    func testTheSwiftUpdaterSearchesEveryGraphAsPythonTUFDoes() async throws {
        let directory = try TemporaryDirectory("delegation-graphs", removedAfter: self)
        let graphs = String(decoding: try JSONEncoder().encode(Self.graphs), as: UTF8.self)
        let output = try PythonTUF.run(Self.oracle, [directory.path], input: Data(graphs.utf8))
        let expected = try JSONDecoder().decode([String: [Lookup]].self, from: Data(output.utf8))
        XCTAssertEqual(Set(expected.keys), Set(Self.graphs.map(\.name)), "python-tuf searched every graph")
        var visitedSomething = false
        for (index, graph) in Self.graphs.enumerated() {
            let repository = directory.url("\(index)")
            for (lookupIndex, path) in graph.lookups.enumerated() {
                let swift = try await Self.search(repository, for: path, maximumDelegations: graph.maximumDelegations)
                let python = expected[graph.name]?[lookupIndex]
                XCTAssertEqual(
                    swift, python, "\(graph.name), \(path): Swift \(swift), python-tuf \(String(describing: python))")
                visitedSomething = visitedSomething || !swift.fetched.isEmpty
            }
        }
        XCTAssertTrue(visitedSomething, "the searches fetched delegated roles")
    }

    /// The Swift updater's search for `path` in the repository python-tuf wrote at `repository`,
    /// by a new client trusting its first root.
    static func search(_ repository: URL, for path: String, maximumDelegations: Int) async throws -> Lookup {
        let client = repository.appendingPathComponent("swift-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: client, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: client) }
        let metadata = repository.appendingPathComponent("metadata")
        let fetcher = ServedFiles(directory: metadata)
        var configuration = UpdaterConfiguration()
        configuration.maximumDelegations = maximumDelegations
        let updater = try Updater(
            metadataDirectory: client, metadataBaseURL: try XCTUnwrap(URL(string: "https://tuf.invalid/metadata/")),
            targetBaseURL: try XCTUnwrap(URL(string: "https://tuf.invalid/targets/")), fetcher: fetcher,
            bootstrapRoot: try Data(contentsOf: metadata.appendingPathComponent("1.root.json")),
            configuration: configuration)
        try await updater.refresh()
        fetcher.forget()
        var lookup = Lookup(fetched: [], found: nil, failed: false, kept: [])
        do {
            lookup.found = try await updater.targetInfo(for: path)?.length
        } catch {
            lookup.failed = true
        }
        lookup.fetched = fetcher.names
        lookup.kept = try FileManager.default.contentsOfDirectory(atPath: client.path).filter { $0.hasSuffix(".json") }
            .sorted()
        return lookup
    }

    /// A static server over `directory`: the last name of each URL, as written (percent-encoded),
    /// is a file of the directory; it remembers the names asked for.
    final class ServedFiles: Fetcher, @unchecked Sendable {
        let directory: URL
        private let lock = NSLock()
        private var asked: [String] = []

        init(directory: URL) { self.directory = directory }

        var names: [String] { lock.withLock { asked } }
        func forget() { lock.withLock { asked.removeAll() } }

        func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
            let name = String(url.absoluteString.split(separator: "/").last ?? "")
            lock.withLock { asked.append(name) }
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                throw FetchError.notFound(url: url.absoluteString)
            }
            guard data.count <= maximumLength else {
                throw FetchError.tooLarge(url: url.absoluteString, limit: maximumLength)
            }
            return data
        }
    }
}
