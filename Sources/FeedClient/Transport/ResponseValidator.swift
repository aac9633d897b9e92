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
import HTTPTransport
import EssentialsSupport

/// What identifies the version of a file a server sent, for `If-Range`: its strong ETag, else
/// its Last-Modified date (a weak ETag may not be used in `If-Range`, RFC 9110 13.1.5).
struct ResponseValidator: Hashable, Sendable {
    /// The header it came from: `ETag` or `Last-Modified`.
    var field: String
    /// The header's value, as sent: what `If-Range` sends back.
    var value: String

    /// The validator of `response`; nil when it has neither a strong ETag nor a Last-Modified.
    init?(of response: HTTPResponseHead) {
        if let etag = response.value("ETag"), !etag.hasPrefix("W/"), !etag.isEmpty {
            self.init(field: "ETag", value: etag)
        } else if let date = response.value("Last-Modified"), !date.isEmpty {
            self.init(field: "Last-Modified", value: date)
        } else {
            return nil
        }
    }

    init(field: String, value: String) {
        self.field = field
        self.value = value
    }

    /// The validator kept in a file as one `FIELD: VALUE` line; nil for anything else.
    init?(line: String) {
        guard let separator = line.range(ofText: ": ") else { return nil }
        let field = String(line[..<separator.lowerBound])
        let value = String(line[separator.upperBound...]).trimmingNewlines()
        guard field == "ETag" || field == "Last-Modified", !value.isEmpty else { return nil }
        self.init(field: field, value: value)
    }

    /// `FIELD: VALUE`.
    var line: String { "\(field): \(value)" }

    /// Whether `response` carries a validator of the same kind that differs: then it is another
    /// version of the file (a server that ignored `If-Range`).
    func isContradicted(by response: HTTPResponseHead) -> Bool {
        guard let served = response.value(field) else { return false }
        return served != value
    }
}
