/// Why an HTTP request for a metadata document failed, naming the URL.
public enum HTTPFetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with a status other than 200 (and other than 403 or 404, which are
    /// `FetchError.notFound`).
    case status(url: String, code: Int)
    /// The connection failed.
    case transport(url: String, reason: String)
    /// No byte arrived for `seconds`.
    case stalled(url: String, seconds: Double)
    /// The request was still under way after its total deadline, `seconds`.
    case deadlineExceeded(url: String, seconds: Double)
    /// The answer was compressed with this `Content-Encoding` although `identity` was asked
    /// for: refused from its head, never decoded.
    case compressed(url: String, encoding: String)
    /// The task was cancelled.
    case cancelled(url: String)

    /// The URL requested.
    public var url: String {
        switch self {
        case .status(let url, _), .transport(let url, _), .stalled(let url, _), .deadlineExceeded(let url, _),
            .compressed(let url, _), .cancelled(let url):
            return url
        }
    }

    public var description: String {
        switch self {
        case .status(let url, let code): return "\(url): HTTP status \(code)"
        case .transport(let url, let reason): return "\(url): \(reason)"
        case .stalled(let url, let seconds): return "\(url): no data for \(seconds) seconds"
        case .deadlineExceeded(let url, let seconds): return "\(url): not done within \(seconds) seconds"
        case .compressed(let url, let encoding):
            return "\(url): the answer is compressed (Content-Encoding: \(encoding)) although identity was asked for"
        case .cancelled(let url): return "\(url): cancelled"
        }
    }
}
