import Foundation

/// One directory for the whole test run, for what a tool would otherwise keep in the user's
/// cache directory (dbgen's fingerprint records): created on first use under the temporary
/// directory, removed when the test process exits.
public enum TestRunCache {
    /// The directory's path (created when first asked for).
    public static let path: String = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("shipyard-test-cache-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestRunCache.path) }
        return url.path
    }()
}
