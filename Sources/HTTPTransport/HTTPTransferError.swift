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

/// Why an exchange ended without its answer, naming the URL requested.
public enum HTTPTransferError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The answer declared a body longer than the request's cap (refused from its head) or sent
    /// more (cut at the cap: nothing past it was accepted).
    case tooLarge(url: URL, limit: Int64)
    /// The answer is compressed with this `Content-Encoding` although `identity` was asked for:
    /// refused from its head, never decoded.
    case compressed(url: URL, encoding: String)
    /// The header fields came to more than the request allows.
    case headersTooLarge(url: URL, limit: Int)
    /// The exchange was still under way when its total deadline passed.
    case deadlineExceeded(url: URL, seconds: Double)
    /// No byte arrived for the stall timeout.
    case stalled(url: URL, seconds: Double)
    /// The connection failed (refused, reset, closed before the declared length, TLS, too many
    /// redirects...): the transport's code and its words.
    case connection(url: URL, code: Int, reason: String)
    /// The task was cancelled.
    case cancelled(url: URL)
    /// The transport cannot run here (libcurl missing, a session configuration it cannot use).
    case unavailable(url: URL, reason: String)

    /// The URL requested.
    public var url: URL {
        switch self {
        case .tooLarge(let url, _), .compressed(let url, _), .headersTooLarge(let url, _),
            .deadlineExceeded(let url, _), .stalled(let url, _), .connection(let url, _, _), .cancelled(let url),
            .unavailable(let url, _):
            return url
        }
    }

    /// Why, in words, the URL not repeated.
    public var reason: String {
        switch self {
        case .tooLarge(_, let limit): return "more than \(limit) bytes"
        case .compressed(_, let encoding):
            return "the answer is compressed (Content-Encoding: \(encoding)) although identity was asked for"
        case .headersTooLarge(_, let limit): return "more than \(limit) bytes of header fields"
        case .deadlineExceeded(_, let seconds): return "not done within \(Self.format(seconds)) seconds"
        case .stalled(_, let seconds): return "no data for \(Self.format(seconds)) seconds"
        case .connection(_, let code, let reason): return "network error \(code): \(reason)"
        case .cancelled: return "cancelled"
        case .unavailable(_, let reason): return reason
        }
    }

    /// `URL: WHY`.
    public var description: String { "\(url.absoluteString): \(reason)" }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
