/// What a fetcher reports that the updater acts on.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server has no such file (HTTP 403 or 404): the end of the root chain, or a missing document.
    case notFound(url: String)
    /// The answer is longer than the cap; nothing past the cap was accepted.
    case tooLarge(url: String, limit: Int)

    public var description: String {
        switch self {
        case .notFound(let url): return "\(url): not found"
        case .tooLarge(let url, let limit): return "\(url): more than \(limit) bytes"
        }
    }
}
