/// The methods the transport sends.
public enum HTTPMethod: String, Hashable, Sendable {
    /// A GET: no body sent; redirects followed.
    case get = "GET"
    /// A POST of the request's body; redirects not followed.
    case post = "POST"
}
