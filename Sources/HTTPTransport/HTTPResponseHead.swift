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
import EssentialsSupport

/// The status and header fields of the answer a request ended with (after any redirects).
public struct HTTPResponseHead: Hashable, Sendable {
    /// The status code (200, 206, 304, 404...).
    public var status: Int
    /// The header fields, by lowercased name (repeated fields joined with `, `).
    public var fields: [String: String]

    /// A head of `status` with `fields` (their names are lowercased).
    public init(status: Int, fields: [String: String]) {
        self.status = status
        var lowered: [String: String] = [:]
        for (name, value) in fields {
            let name = name.lowercased()
            lowered[name] = lowered[name].map { $0 + ", " + value } ?? value
        }
        self.fields = lowered
    }

    /// The value of the field `name` (any case), if it was sent.
    public func value(_ name: String) -> String? { fields[name.lowercased()] }

    /// The body's length as `Content-Length` declares it; nil when it declares none, or one
    /// that is not a decimal number.
    public var contentLength: Int64? {
        guard let text = value("Content-Length")?.trimmingSpacesAndTabs(), !text.isEmpty,
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int64(text) ?? Int64.max // more digits than Int64 holds: more than any cap
    }

    /// The `Content-Encoding` when it is one the transport would have to decode (anything but
    /// `identity`); nil otherwise.
    var compressedEncoding: String? {
        guard let encoding = value("Content-Encoding")?.trimmingSpacesAndTabs(), !encoding.isEmpty,
            encoding.lowercased() != "identity"
        else { return nil }
        return encoding
    }

    /// Whether this is a redirect that the transport follows (a 3xx other than 304 with a
    /// `Location`), rather than the answer.
    var isRedirect: Bool {
        (300...399).contains(status) && status != 304 && value("Location") != nil
    }
}
