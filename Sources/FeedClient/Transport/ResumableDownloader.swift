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
import HTTPTransport

/// Downloads one file into a staging directory, resumably across runs of the app, never
/// accepting more bytes than its metadata says and hashing every byte as it arrives.
///
/// - A partial file staged by an earlier run, with the ETag or Last-Modified of the response it
///   came from, is resumed with `Range: bytes=N-` and `If-Range`: a 206 appends to it (its
///   staged bytes are hashed first), a 200 restarts from zero (the file changed on the server).
/// - A response that declares or sends more bytes than the metadata's length is cut there; a
///   compressed one (`Content-Encoding`, although `identity` is asked for) is refused.
/// - The file is returned only when its length and SHA-256 are the metadata's; a file of the
///   full length with another hash can never match and is removed.
/// - A transfer with no data for the stall timeout stops, and so does one still under way at
///   its total deadline (`HTTPRequest.deadline(forBodyOf:)` of the file's length); Task
///   cancellation stops it too. The partial file then stays for the next run.
///
/// The resume is this type's own Range + If-Range request on every platform (no resume data:
/// Linux's transport is libcurl, and a background session cannot stream).
public final class ResumableDownloader: @unchecked Sendable {
    private let client: HTTPClient
    /// How long a transfer may go without receiving a byte.
    public let stallTimeout: TimeInterval

    #if canImport(Darwin)
    /// A downloader whose sessions use `configuration` (the app's own: expensive or constrained
    /// network access, proxies, additional headers...), copied; its caching is turned off, as
    /// every byte is checked here. No transfer may go `stallTimeout` seconds without a byte. A
    /// background configuration is refused at each download (``DownloadError/transport(url:code:reason:)``):
    /// background sessions run no data task, and only a data task streams each byte through the checks.
    public init(configuration: URLSessionConfiguration = .ephemeral, stallTimeout: TimeInterval = 60) {
        client = HTTPClient(configuration: configuration)
        self.stallTimeout = stallTimeout
    }

    /// A downloader that uses the app's `session`'s configuration. The streaming delegate API
    /// needs a session whose delegate is this downloader's, so each download runs in a session
    /// made with a copy of `session.configuration` (its cookie storage, credential storage and
    /// protocol classes are the same objects).
    public convenience init(session: URLSession, stallTimeout: TimeInterval = 60) {
        self.init(configuration: session.configuration, stallTimeout: stallTimeout)
    }
    #else
    /// A downloader (libcurl, loaded at the first download): no transfer may go `stallTimeout`
    /// seconds without a byte.
    public init(stallTimeout: TimeInterval = 60) {
        client = HTTPClient()
        self.stallTimeout = stallTimeout
    }
    #endif

    /// Where the verified file of `target` is kept in `stagingDirectory` (`SHA256`, beside any
    /// `SHA256.partial` and `SHA256.partial.validator` of an unfinished download).
    ///
    /// - Throws: ``DownloadError/staging(url:path:code:reason:)`` when the target's SHA-256 is
    ///   not 64 hexadecimal digits (it names no file).
    public static func stagedFile(for target: DownloadTarget, in stagingDirectory: URL) throws -> URL {
        try StagingArea(directory: stagingDirectory, target: target).complete
    }

    /// Downloads `target` into `stagingDirectory` (created if missing; inside the app's updates
    /// directory), resuming what an earlier run staged there, and returns the verified file's
    /// URL (``stagedFile(for:in:)``): exactly the metadata's length and SHA-256.
    ///
    /// `progress` is called (on the transfer's own thread or queue) with the bytes staged so far.
    ///
    /// - Throws: ``DownloadError``, naming the URL; see each case for what it leaves behind.
    public func download(
        _ target: DownloadTarget, into stagingDirectory: URL,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws -> URL {
        let staging = try StagingArea(directory: stagingDirectory, target: target)
        try staging.prepare()
        if staging.exists(staging.complete) {
            let (hash, length) = try staging.hash(of: staging.complete)
            if length == target.length, hash.hexDigest() == target.sha256 { return staging.complete }
            unlink(staging.complete.path)
        }
        if Task.isCancelled { throw DownloadError.cancelled(url: target.url) }
        let staged = staging.partialLength()
        if staged > target.length { staging.discardPartial() }
        // The staged bytes count (and are hashed) when the file is whole or its validator is kept.
        let validator = staged > 0 && staged < target.length ? staging.validator() : nil
        var (hash, length) =
            staged == target.length || validator != nil
            ? try staging.hash(of: staging.partial) : (SHA256Stream(), 0)
        if length < target.length {
            let transfer = RangeTransfer(
                staging: staging, resumingFrom: validator, hash: hash, received: length, progress: progress)
            do {
                (hash, length) = try await transfer.run(with: client, stallTimeout: stallTimeout)
            } catch {
                if staging.partialLength() == 0 { staging.discardPartial() } // nothing to resume
                throw error
            }
        }
        guard length == target.length else {
            throw DownloadError.truncated(url: target.url, received: length, expectedLength: target.length)
        }
        let digest = hash.hexDigest()
        guard digest == target.sha256 else {
            staging.discardPartial()
            throw DownloadError.hashMismatch(url: target.url, expected: target.sha256, actual: digest)
        }
        try staging.promotePartial()
        return staging.complete
    }
}
