import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import EssentialsSupport

/// One HTTP GET of a file into its staged partial file, from where the partial file ends,
/// through HTTPTransport (streamed: URLSession's delegate API on Apple platforms, libcurl on
/// Linux).
///
/// Every byte is counted against the expected length, hashed and appended as it arrives. The
/// transport calls the handler methods one at a time, in order; ``run(with:stallTimeout:)``
/// reads the state only after the transfer has ended.
final class RangeTransfer: HTTPResponseHandler {
    private let staging: StagingArea
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    /// The validator sent in `If-Range` (nil: the transfer starts from zero).
    private let sentValidator: ResponseValidator?
    private var runningHash: SHA256Stream
    private var received: Int64
    private var descriptor: Int32 = -1

    /// A transfer that appends to `staging`'s partial file, whose first `received` bytes
    /// (hashed into `hash`) were staged under `validator`.
    init(
        staging: StagingArea, resumingFrom validator: ResponseValidator?, hash: SHA256Stream, received: Int64,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) {
        self.staging = staging
        self.sentValidator = validator
        self.runningHash = validator == nil ? SHA256Stream() : hash
        self.received = validator == nil ? 0 : received
        self.progress = progress
    }

    private var url: URL { staging.target.url }
    private var expectedLength: Int64 { staging.target.length }

    /// Runs the transfer; returns the hash of the whole partial file and its length when the
    /// response ended normally (the caller checks both against the metadata).
    func run(with client: HTTPClient, stallTimeout: TimeInterval) async throws -> (hash: SHA256Stream, length: Int64) {
        let partial = staging.partial.path
        descriptor = POSIXFile.open(partial, O_WRONLY | O_CREAT | O_APPEND, mode: 0o644)
        guard descriptor >= 0 else { throw staging.stagingError(partial, code: errno) }
        defer {
            close(descriptor)
            descriptor = -1
        }
        if sentValidator == nil, ftruncate(descriptor, 0) != 0 { throw staging.stagingError(partial, code: errno) }
        var fields: [HTTPField] = []
        if let sentValidator {
            fields = [HTTPField("Range", "bytes=\(received)-"), HTTPField("If-Range", sentValidator.value)]
        }
        // The cap is the whole length: a 200 to a Range request sends the whole file.
        let request = HTTPRequest(
            url: url, headerFields: fields, maximumBodyLength: expectedLength, stallTimeout: stallTimeout)
        do {
            try await client.send(request, to: self)
        } catch let error as HTTPTransferError {
            // Cut at the expected length: a whole file with another hash can never match.
            if case .tooLarge = error, received == expectedLength, runningHash.hexDigest() != staging.target.sha256 {
                staging.discardPartial()
            }
            throw Self.downloadError(error, expectedLength: expectedLength)
        }
        return (runningHash, received)
    }

    /// The download error a transport error becomes.
    static func downloadError(_ error: HTTPTransferError, expectedLength: Int64) -> DownloadError {
        switch error {
        case .tooLarge(let url, _): return .tooManyBytes(url: url, expectedLength: expectedLength)
        case .compressed(let url, let encoding): return .compressed(url: url, encoding: encoding)
        case .deadlineExceeded(let url, let seconds): return .deadlineExceeded(url: url, seconds: seconds)
        case .stalled(let url, let seconds): return .stalled(url: url, seconds: seconds)
        case .connection(let url, let code, let reason): return .transport(url: url, code: code, reason: reason)
        case .cancelled(let url): return .cancelled(url: url)
        case .headersTooLarge(let url, _), .unavailable(let url, _):
            return .transport(url: url, code: 0, reason: error.reason)
        }
    }

    // MARK: HTTPResponseHandler

    /// Receives the body when the transfer may go on with it, else throws why not. A 200
    /// restarts the partial file from zero (the file changed since it was staged, or nothing was).
    func head(_ head: HTTPResponseHead) throws -> HTTPBodyDecision {
        switch head.status {
        case 206:
            let contentRange = head.value("Content-Range")
            guard Self.start(ofContentRange: contentRange) == received else {
                throw DownloadError.unexpectedContentRange(url: url, offset: received, contentRange: contentRange)
            }
            if let sentValidator, sentValidator.isContradicted(by: head) {
                staging.discardPartial()
                let served = head.value(sentValidator.field) ?? ""
                throw DownloadError.fileChanged(url: url, staged: sentValidator.value, served: served)
            }
            if let declared = head.contentLength, declared > expectedLength - received {
                throw DownloadError.tooManyBytes(url: url, expectedLength: expectedLength)
            }
        case 200:
            if let declared = head.contentLength, declared > expectedLength {
                throw DownloadError.tooManyBytes(url: url, expectedLength: expectedLength)
            }
            if received > 0 || sentValidator != nil {
                guard ftruncate(descriptor, 0) == 0 else {
                    throw staging.stagingError(staging.partial.path, code: errno)
                }
                received = 0
                runningHash = SHA256Stream()
            }
            try staging.keep(ResponseValidator(of: head))
        case 416:
            staging.discardPartial()
            throw DownloadError.rangeNotSatisfiable(url: url, offset: received)
        default:
            throw DownloadError.httpStatus(url: url, status: head.status, retryAfter: head.value("Retry-After"))
        }
        report()
        return .receive
    }

    func body(_ bytes: UnsafeRawBufferPointer) throws {
        let room = expectedLength - received
        let accepted = UnsafeRawBufferPointer(rebasing: bytes.prefix(Int(min(Int64(bytes.count), room))))
        let code = POSIXFile.writeAll(descriptor, accepted)
        guard code == 0 else { throw staging.stagingError(staging.partial.path, code: code) }
        runningHash.update(accepted)
        received += Int64(accepted.count)
        report()
        if bytes.count > accepted.count {
            // Cut at the expected length: a whole file with another hash can never match.
            if runningHash.hexDigest() != staging.target.sha256 { staging.discardPartial() }
            throw DownloadError.tooManyBytes(url: url, expectedLength: expectedLength)
        }
    }

    /// The first byte's offset in a `Content-Range: bytes FIRST-LAST/LENGTH` header.
    static func start(ofContentRange header: String?) -> Int64? {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let range = header.dropFirst("bytes ".count)
        guard let dash = range.firstIndex(of: "-") else { return nil }
        return Int64(range[..<dash].trimmingSpacesAndTabs())
    }

    private func report() {
        progress?(DownloadProgress(completedBytes: received, totalBytes: expectedLength))
    }
}
