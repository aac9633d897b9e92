import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Metadata the Swift side signs is verified by python-tuf's own client (ngclient's Updater, reading the
/// repository through a file fetcher): root rotation, timestamp, snapshot, targets and a target.
final class SwiftSignedRepositoryTests: XCTestCase {
    static let client =
        PythonTUF.fileClientPreamble + """
            repository, client_dir, root_path = sys.argv[1:4]
            os.makedirs(os.path.join(client_dir, "downloads"))
            with open(root_path, "rb") as f:
                root = f.read()
            updater = Updater(client_dir, f"file://{repository}/metadata/", os.path.join(client_dir, "downloads"),
                              f"file://{repository}/targets/", fetcher=FileFetcher(), bootstrap=root)
            updater.refresh()
            info = updater.get_targetinfo("file.txt")
            path = updater.download_target(info)
            with open(path, "rb") as f:
                sys.stdout.write(f.read().decode())
            print(updater._trusted_set.root.version, updater._trusted_set.timestamp.version,
                  updater._trusted_set.snapshot.version, updater._trusted_set.targets.version)
            """

    func testPythonTUFVerifiesWhatSwiftSigns() throws {
        let repository = try RepositoryFixture()
        let old = repository.rootKeys
        repository.rootKeys = [Ed25519SigningKey(), Ed25519SigningKey()]
        repository.rootThreshold = 2
        try repository.publishRoot(signedBy: old + repository.rootKeys)
        try repository.publishTargets()
        try repository.publishSnapshot()
        try repository.publishTimestamp()
        let client = try TemporaryDirectory("python-tuf-client", removedAfter: self)
        let root = try client.write("bundled-root.json", repository.initialRoot)
        let output = try PythonTUF.run(Self.client, [repository.directory.path, client.path, root.path])
        XCTAssertEqual(output, "the target's content\n2 2 2 2\n")
    }

    func testPythonTUFRefusesARootNotSignedByThePreviousOne() throws {
        let repository = try RepositoryFixture()
        repository.rootKeys = [Ed25519SigningKey()]
        try repository.publishRoot()
        let client = try TemporaryDirectory("python-tuf-client", removedAfter: self)
        let root = try client.write("bundled-root.json", repository.initialRoot)
        let arguments = [repository.directory.path, client.path, root.path]
        XCTAssertThrowsError(try PythonTUF.run(Self.client, arguments)) { error in
            XCTAssertTrue("\(error)".contains("UnsignedMetadataError"), "\(error)")
        }
    }
}
