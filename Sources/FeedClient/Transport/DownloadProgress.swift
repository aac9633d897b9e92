/// How far a download is: the bytes of the file staged so far (a resumed download starts at
/// what an earlier run staged) out of the length the metadata gives.
///
/// ``ResumableDownloader/download(_:into:progress:)`` reports it through a callback; an
/// updater exposes it as an `AsyncSequence` by yielding each value into an `AsyncStream`:
///
/// ```swift
/// let (updates, continuation) = AsyncStream.makeStream(of: DownloadProgress.self,
///                                                      bufferingPolicy: .bufferingNewest(1))
/// let file = try await downloader.download(target, into: staging) { continuation.yield($0) }
/// continuation.finish()
/// ```
public struct DownloadProgress: Hashable, Sendable {
    /// The bytes staged so far.
    public var completedBytes: Int64
    /// The file's length, as the metadata says.
    public var totalBytes: Int64

    /// `completedBytes` of `totalBytes`.
    public init(completedBytes: Int64, totalBytes: Int64) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The fraction done, from 0 to 1 (1 for an empty file).
    public var fractionCompleted: Double {
        totalBytes > 0 ? Double(completedBytes) / Double(totalBytes) : 1
    }
}
