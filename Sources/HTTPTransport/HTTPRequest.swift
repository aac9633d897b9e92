#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif

/// One GET: where, with which header fields, and the limits it runs under, all fixed before it
/// is sent.
///
/// Every request is sent with `Accept-Encoding: identity` (a field of that name given here is
/// dropped): the transport never decodes a compressed answer, so the bytes counted against
/// ``maximumBodyLength`` are the bytes received.
public struct HTTPRequest: Sendable {
    /// What is fetched (`http` or `https`; redirects to either are followed).
    public var url: URL
    /// Fields sent with the request, in order (`Range`, `If-Range`, `If-None-Match`...).
    public var headerFields: [HTTPField]
    /// The most body bytes accepted: an answer that declares more is refused from its head, and
    /// one that sends more is cut there.
    public var maximumBodyLength: Int64
    /// The longest the whole exchange may take, from the request to the body's last byte.
    public var deadline: TimeInterval
    /// The longest the exchange may go without receiving a byte (of the head or of the body).
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
        self.headerFields = headerFields
        self.maximumBodyLength = max(0, maximumBodyLength)
        self.deadline = deadline ?? Self.deadline(forBodyOf: maximumBodyLength)
        self.stallTimeout = stallTimeout
        self.maximumHeaderBytes = maximumHeaderBytes
    }

    /// A deadline that a body of `length` bytes meets on a slow link: a minute, plus the time
    /// to receive it at 16 KiB/s (a 16 KiB document: 61 s; 50 MB: about 52 minutes).
    public static func deadline(forBodyOf length: Int64) -> TimeInterval {
        60 + Double(max(0, length)) / 16_384
    }

    /// The fields sent: ``headerFields`` without any `Accept-Encoding`, then `Accept-Encoding: identity`.
    var sentFields: [HTTPField] {
        headerFields.filter { $0.name.lowercased() != "accept-encoding" } + [HTTPField("Accept-Encoding", "identity")]
    }
}

/// One header field: a name and its value.
public struct HTTPField: Hashable, Sendable {
    /// The field's name, as sent.
    public var name: String
    /// Its value.
    public var value: String

    /// The field `name: value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
