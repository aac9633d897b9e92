/// Why an HTTP request failed, naming the URL.
public enum HTTPFetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with a status other than 200 (and other than 403 or 404, which are
    /// `FetchError.notFound`).
    case status(url: String, code: Int)
    /// The connection failed or timed out.
    case transport(url: String, reason: String)

    public var description: String {
        switch self {
        case .status(let url, let code): return "\(url): HTTP status \(code)"
        case .transport(let url, let reason): return "\(url): \(reason)"
        }
    }
}
