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
import ShipyardVersion

/// One exchange: a GET, or a POST with its body; where, with which header fields, and the
/// limits it runs under, all fixed before it is sent.
///
/// Every request is sent with `Accept-Encoding: identity` (a field of that name given here is
/// dropped): the transport never decodes a compressed answer, so the bytes counted against
/// ``maximumBodyLength`` are the bytes received. It says who asks with
/// `User-Agent: Shipyard/VERSION` (``userAgent``, `ShipyardVersion.current`), unless
/// ``headerFields`` has a `User-Agent` of its own.
public struct HTTPRequest: Sendable {
    /// What is fetched or posted to (`http` or `https`). A GET follows redirects to either; a
    /// POST follows none: a redirect is its answer (its body is not sent twice, nor elsewhere).
    public var url: URL
    /// `GET` or `POST`.
    public var method: HTTPMethod
    /// What a POST sends (its `Content-Length` is its count); empty for a GET.
    public var body: Data
    /// Fields sent with the request, in order (`Range`, `If-Range`, `If-None-Match`,
    /// `Content-Type`, `Authorization`...).
    public var headerFields: [HTTPField]
    /// The most body bytes accepted: an answer that declares more is refused from its head, and
    /// one that sends more is cut there.
    public var maximumBodyLength: Int64
    /// The longest the whole exchange may take, from the request to the body's last byte.
    public var deadline: TimeInterval
    /// The longest the exchange may go without progress: a byte received (of the head or of the
    /// body), or a piece of a POST's body taken by the connection.
    public var stallTimeout: TimeInterval
    /// The most bytes of header fields accepted (every response of a redirect chain counted).
    public var maximumHeaderBytes: Int

    /// A GET of `url` with `headerFields`, accepting at most `maximumBodyLength` body bytes;
    /// the deadline is ``deadline(forBodyOf:)`` of that length unless given.
    public init(
        url: URL, headerFields: [HTTPField] = [], maximumBodyLength: Int64, deadline: TimeInterval? = nil,
        stallTimeout: TimeInterval = 30, maximumHeaderBytes: Int = 65_536
    ) {
        self.url = url
        self.method = .get
        self.body = Data()
        self.headerFields = headerFields
        self.maximumBodyLength = max(0, maximumBodyLength)
        self.deadline = deadline ?? Self.deadline(forBodyOf: maximumBodyLength)
        self.stallTimeout = stallTimeout
        self.maximumHeaderBytes = maximumHeaderBytes
    }

    /// A POST of `body` to `url` with `headerFields` (`Content-Type: application/octet-stream`
    /// unless they name one), accepting at most `maximumBodyLength` bytes of answer; the deadline
    /// is ``deadline(forBodyOf:)`` of both lengths together unless given.
    public init(
        post url: URL, body: Data, headerFields: [HTTPField] = [], maximumBodyLength: Int64,
        deadline: TimeInterval? = nil, stallTimeout: TimeInterval = 30, maximumHeaderBytes: Int = 65_536
    ) {
        let both = Int64(body.count).addingReportingOverflow(max(0, maximumBodyLength))
        self.init(
            url: url, headerFields: headerFields, maximumBodyLength: maximumBodyLength,
            deadline: deadline ?? Self.deadline(forBodyOf: both.overflow ? .max : both.partialValue),
            stallTimeout: stallTimeout, maximumHeaderBytes: maximumHeaderBytes)
        self.method = .post
        self.body = body
    }

    /// A deadline that a body of `length` bytes meets on a slow link: a minute, plus the time
    /// to receive it at 16 KiB/s (a 16 KiB document: 61 s; 50 MB: about 52 minutes).
    public static func deadline(forBodyOf length: Int64) -> TimeInterval {
        60 + Double(max(0, length)) / 16_384
    }

    /// The `User-Agent` every request carries unless it gives its own: `Shipyard/0.2.0`, the
    /// version being `ShipyardVersion.current`, so a host's logs tell which release of the client asked.
    public static let userAgent = "Shipyard/\(ShipyardVersion.current)"

    /// The fields sent: ``headerFields`` without any `Accept-Encoding`, then `Accept-Encoding:
    /// identity`, then ``userAgent`` unless ``headerFields`` names a `User-Agent`; for a POST that
    /// names no `Content-Type`, `Content-Type: application/octet-stream` (each transport would
    /// otherwise add a form's type of its own).
    var sentFields: [HTTPField] {
        var fields = headerFields.filter { $0.name.lowercased() != "accept-encoding" }
        if method == .post, !fields.contains(where: { $0.name.lowercased() == "content-type" }) {
            fields.append(HTTPField("Content-Type", "application/octet-stream"))
        }
        let named = headerFields.contains { $0.name.lowercased() == "user-agent" }
        return fields + [HTTPField("Accept-Encoding", "identity")]
            + (named ? [] : [HTTPField("User-Agent", Self.userAgent)])
    }
}
