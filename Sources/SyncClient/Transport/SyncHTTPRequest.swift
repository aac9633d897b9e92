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

/// One sync request over HTTP: `POST` of `body` to `url` with `headers`.
package struct SyncHTTPRequest: Sendable {
    package var url: URL
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// How long the transfer may go without progress, in seconds.
    package var idleTimeout: TimeInterval
    /// How long the whole request may take, in seconds.
    package var deadline: TimeInterval
    /// The most bytes of answer body accepted: a longer answer fails the request.
    package var maximumAnswerBytes: Int

    package init(
        url: URL, headers: [(name: String, value: String)], body: [UInt8], idleTimeout: TimeInterval,
        deadline: TimeInterval, maximumAnswerBytes: Int
    ) {
        self.url = url
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.maximumAnswerBytes = maximumAnswerBytes
    }
}
