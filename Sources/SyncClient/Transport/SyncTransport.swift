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

/// What carries a sync request to the server and its answer back. ``HTTPSyncTransport``
/// on every platform for now; tests drive the sync with their own (an answer built with
/// SyncProtocol, a dropped connection) through `UserDatabaseSync`'s `package` initializer.
package protocol SyncTransport: Sendable {
    /// Sends `request`; throws ``SyncClientError/transport(_:)`` when no answer came (or it was
    /// over the cap), ``SyncClientError/cancelled`` when the task was cancelled.
    func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPAnswer
}
