import Foundation

/// What ``FaultInjectingHTTPServer`` answers to one request for a path: a faithful file server
/// (Range, If-Range, ETag) or one of the faults nginx will not produce.
public enum ScriptedResponse: Sendable {
    /// Serves `body` as a static file with a strong `etag`: 304 for `If-None-Match: ETAG`, 200, 206 for `Range: bytes=N-` or
    /// `bytes=N-M` (when `If-Range` is absent or equals `etag`, or always when
    /// `honoursIfRange` is false: a server that ignores If-Range), 416 past its end.
    case file(Data, etag: String, honoursIfRange: Bool = true)
    /// Answers as ``file(_:etag:honoursIfRange:)`` would (its status and `Content-Length`),
    /// sends only the first `after` bytes of the body, then closes the connection normally.
    case cutShort(Data, etag: String, after: Int)
    /// As ``cutShort(_:etag:after:)``, then resets the connection (SO_LINGER 0).
    case reset(Data, etag: String, after: Int)
    /// Answers as ``file(_:etag:honoursIfRange:)`` would, `bytesPerChunk` bytes every
    /// `interval` seconds.
    case trickle(Data, etag: String, bytesPerChunk: Int, interval: TimeInterval)
    /// A `status` (404, 500, 503...) with a short text body and, if given, `Retry-After`.
    case status(Int, retryAfter: String? = nil)
    /// 200 with `body` and a `Content-Length` of `declaredLength` (a wrong one, on purpose), or
    /// none when nil: then the body ends when the connection closes.
    case body(Data, declaredLength: Int?)
    /// 200 with `count` zero bytes streamed in 64 KiB pieces (never held in memory: a 10 GB
    /// answer) and a `Content-Length` of `declaredLength`, or none when nil; stops when the
    /// client goes away.
    case endless(count: Int64, declaredLength: Int64?)
    /// 200 with `Transfer-Encoding: chunked` and `count` zero bytes in 64 KiB chunks (never held
    /// in memory), then the last chunk; stops when the client goes away.
    case chunked(count: Int64)
    /// 200 with `body` as sent, declared compressed with `Content-Encoding: encoding` (whatever
    /// the request's `Accept-Encoding` said), with its length.
    case encoded(Data, encoding: String)
    /// Holds the connection open and sends nothing more (after a 200 head declaring 1,000 bytes when
    /// `sendsHead`, else nothing at all) until the client goes away or the server stops.
    case silent(sendsHead: Bool)
    /// A redirect (301, 302, 307...) to `path` on the same server.
    case redirect(Int, to: String)
}
