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

/// Why a download failed: each case names the URL and what was wrong.
///
/// What is left in the staging directory afterwards: a partial file (and its validator) that a
/// later run can resume, unless the case says it was removed because it can never match.
public enum DownloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered with a status that is neither 200 nor 206 (a 404, a 500, a 503...);
    /// `retryAfter` is its `Retry-After` header as sent, if any. The partial file is kept.
    case httpStatus(url: URL, status: Int, retryAfter: String?)
    /// 416: the server has no byte at `offset`, where the staged partial file ends. The partial
    /// file was removed, so the next run starts from zero.
    case rangeNotSatisfiable(url: URL, offset: Int64)
    /// A 206 whose `Content-Range` (as sent, or nil when missing) does not start at `offset`,
    /// where the staged partial file ends. The partial file is kept.
    case unexpectedContentRange(url: URL, offset: Int64, contentRange: String?)
    /// Asked to resume a file whose validator (ETag or Last-Modified) was `staged`, the server
    /// sent part of another version of it (`served`) instead of the whole file: it ignored
    /// If-Range. The partial file was removed, so the next run starts from zero.
    case fileChanged(url: URL, staged: String, served: String)
    /// The server declared or sent more bytes than the metadata says (`expectedLength`): the
    /// transfer was cut there.
    case tooManyBytes(url: URL, expectedLength: Int64)
    /// The response ended after `received` of the `expectedLength` bytes the metadata says
    /// (a body cut short). The partial file is kept for a later run to resume.
    case truncated(url: URL, received: Int64, expectedLength: Int64)
    /// All the bytes arrived and their SHA-256 is `actual`, not the `expected` one of the
    /// metadata. The file was removed.
    case hashMismatch(url: URL, expected: String, actual: String)
    /// No byte arrived for `seconds`: the transfer was stopped. The partial file is kept.
    case stalled(url: URL, seconds: Double)
    /// The transfer was still under way after its total deadline, `seconds`: it was stopped.
    /// The partial file is kept for a later run to resume.
    case deadlineExceeded(url: URL, seconds: Double)
    /// The server compressed its answer with this `Content-Encoding` although `identity` was
    /// asked for: refused from the head, nothing of it decoded or kept.
    case compressed(url: URL, encoding: String)
    /// The network failed: the `URLError` code and its description. The partial file is kept.
    case transport(url: URL, code: Int, reason: String)
    /// Reading or writing the staging file at `path` failed with `errno` `code` (`ENOSPC`:
    /// the disk is full). The partial file holds what was written.
    case staging(url: URL, path: String, code: Int32, reason: String)
    /// The task was cancelled. The partial file is kept for a later run to resume.
    case cancelled(url: URL)

    /// The URL of the download that failed.
    public var url: URL {
        switch self {
        case .httpStatus(let url, _, _), .rangeNotSatisfiable(let url, _), .unexpectedContentRange(let url, _, _),
            .fileChanged(let url, _, _), .tooManyBytes(let url, _), .truncated(let url, _, _),
            .hashMismatch(let url, _, _), .stalled(let url, _), .deadlineExceeded(let url, _),
            .compressed(let url, _), .transport(let url, _, _),
            .staging(let url, _, _, _), .cancelled(let url):
            return url
        }
    }

    /// `URL: WHY`.
    public var description: String {
        let url = self.url.absoluteString
        switch self {
        case .httpStatus(_, let status, let retryAfter):
            let retry = retryAfter.map { " (Retry-After: \($0))" } ?? ""
            return "\(url): the server answered HTTP \(status)\(retry)"
        case .rangeNotSatisfiable(_, let offset):
            return "\(url): the server has no byte at \(offset) (HTTP 416); the partial file was removed"
        case .unexpectedContentRange(_, let offset, let contentRange):
            let sent = contentRange ?? "(none)"
            return "\(url): asked for the bytes from \(offset), the server sent Content-Range: \(sent)"
        case .fileChanged(_, let staged, let served):
            return "\(url): the file changed on the server while resuming (\(staged), now \(served)); "
                + "the partial file was removed"
        case .tooManyBytes(_, let expectedLength):
            return "\(url): more bytes than the metadata says (\(expectedLength))"
        case .truncated(_, let received, let expectedLength):
            return "\(url): the response ended after \(received) of \(expectedLength) bytes"
        case .hashMismatch(_, let expected, let actual):
            return "\(url): SHA-256 \(actual), the metadata says \(expected); the file was removed"
        case .stalled(_, let seconds):
            return "\(url): no data for \(seconds) seconds"
        case .deadlineExceeded(_, let seconds):
            return "\(url): not done within \(seconds) seconds; the partial file is kept"
        case .compressed(_, let encoding):
            return "\(url): the answer is compressed (Content-Encoding: \(encoding)) although identity was asked for"
        case .transport(_, let code, let reason):
            return "\(url): network error \(code): \(reason)"
        case .staging(_, let path, _, let reason):
            return "\(url): staging file \(path): \(reason)"
        case .cancelled:
            return "\(url): cancelled"
        }
    }
}
