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
}
