import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// A client of a `RepositoryFixture`: its own metadata directory, initialised with the repository's first
/// root, reading the repository through `FileFetcher`.
final class ClientFixture {
    let directory: TemporaryDirectory
    let repository: RepositoryFixture

    init(_ repository: RepositoryFixture) throws {
        self.repository = repository
        directory = try TemporaryDirectory("tuf-client")
        try FileManager.default.createDirectory(at: metadataURL, withIntermediateDirectories: true)
        try MetadataStore(directory: metadataURL).store(repository.initialRoot, for: "root")
    }

    var metadataURL: URL { directory.url("metadata") }
    var targetsURL: URL { directory.url("targets") }

    func updater(at time: Date = Date()) throws -> Updater {
        try FileManager.default.createDirectory(at: targetsURL, withIntermediateDirectories: true)
        return try Updater(
            metadataDirectory: metadataURL, metadataBaseURL: repository.metadataURL,
            targetBaseURL: repository.targetsURL, fetcher: FileFetcher(), referenceTime: time
        )
    }

    /// A refresh by a new updater (waited for: the fixture's tests are synchronous).
    func refresh(at time: Date = Date()) throws {
        let updater = try updater(at: time)
        try synchronously { try await updater.refresh() }
    }

    /// The stored trusted documents, by file name, to check that a refused refresh changed none.
    func stored() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: metadataURL.path) {
            files[name] = try Data(contentsOf: metadataURL.appendingPathComponent(name))
        }
        return files
    }

    func version(_ role: String) throws -> Int64? {
        guard let data = MetadataStore(directory: metadataURL).load(role) else { return nil }
        return try Metadata(data: data, document: role).header.version
    }

    /// Refreshes, expecting the refusal `expected`, and checks that no stored document changed (or, given
    /// `roles`, none of theirs: the documents verified before the refused one may be stored).
    func assertRefused(
        _ expected: TUFError, roles: [String]? = nil, at time: Date = Date(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        func kept(_ files: [String: Data]) -> [String: Data] {
            guard let roles else { return files }
            return files.filter { roles.contains(String($0.key.dropLast(".json".count))) }
        }
        let before = kept(try stored())
        XCTAssertThrowsError(try refresh(at: time), file: file, line: line) { error in
            XCTAssertEqual(error as? TUFError, expected, "\(error)", file: file, line: line)
        }
        XCTAssertEqual(
            kept(try stored()), before, "a refused refresh changed the trusted metadata", file: file, line: line
        )
    }
}
