import Foundation

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

/// The server's HTTP answer.
package struct SyncHTTPAnswer: Sendable {
    package var status: Int
    /// Header fields by lowercased name.
    package var headers: [String: String]
    package var body: [UInt8]

    package init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// What carries a sync request to the server and its answer back. ``HTTPSyncTransport``
/// on every platform for now; tests drive the sync with their own (an answer built with
/// SyncProtocol, a dropped connection) through `UserDatabaseSync`'s `package` initializer.
package protocol SyncTransport: Sendable {
    /// Sends `request`; throws ``SyncClientError/transport(_:)`` when no answer came (or it was
    /// over the cap), ``SyncClientError/cancelled`` when the task was cancelled.
    func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPAnswer
}
