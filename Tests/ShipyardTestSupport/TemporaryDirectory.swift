import Foundation
import XCTest

/// A fresh directory under the system's temporary directory, removed when the test that made
/// it ends (given `removedAfter:`), else when the object is released.
public final class TemporaryDirectory {
    /// The directory.
    public let url: URL
    /// Whether a test's teardown removes it (then releasing the object does not).
    private let removedByTeardown: Bool
    /// The directory's path.
    public var path: String { url.path }

    /// Creates the directory; its name starts with `prefix` (which may contain spaces and
    /// quotes, to exercise hostile paths). Pass `test` to remove it at the test's teardown.
    public init(_ prefix: String = "shipyard", removedAfter test: XCTestCase? = nil) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        removedByTeardown = test != nil
        if let test {
            let url = self.url
            test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        }
    }

    deinit {
        if !removedByTeardown { try? FileManager.default.removeItem(at: url) }
    }

    /// The URL of `relativePath` inside the directory (nothing is created).
    public func url(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }

    /// Writes `contents` to `relativePath`, creating intermediate directories; returns its URL.
    @discardableResult
    public func write(_ relativePath: String, _ contents: String) throws -> URL {
        try write(relativePath, Data(contents.utf8))
    }

    /// Writes `data` to `relativePath`, creating intermediate directories; returns its URL.
    @discardableResult
    public func write(_ relativePath: String, _ data: Data) throws -> URL {
        let file = url(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Sets the modification time of everything inside the directory (``backdateContents(of:by:)``).
    public func backdateContents(by seconds: TimeInterval = 60) throws {
        try Self.backdateContents(of: url, by: seconds)
    }

    /// Sets the modification time of every file and directory inside `directory` (not
    /// `directory` itself) `seconds` into the past, as a person's files, saved well before a
    /// build, are. A file a build reads in the same timestamp tick as it was written is racily
    /// clean, and dbgen's up-to-date check does not trust it (the next build runs): tests that
    /// expect a second build to be skipped backdate their inputs first.
    public static func backdateContents(of directory: URL, by seconds: TimeInterval = 60) throws {
        let past = Date(timeIntervalSinceNow: -seconds)
        let paths = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        for path in paths {
            try FileManager.default.setAttributes(
                [.modificationDate: past],
                ofItemAtPath: directory.appendingPathComponent(path).path)
        }
    }
}
