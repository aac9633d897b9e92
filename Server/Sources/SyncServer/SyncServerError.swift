/// Why the server refused a request: the HTTP status it answers and the reason, which the
/// answer's `text/plain` body carries as `sync: error: WHY`. Nothing was written.
public struct SyncServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status code (400, 401, 403, 409, 413, 422, 500, 503).
    public var status: Int
    /// What failed, naming the field, claim, table or column.
    public var reason: String

    /// A refusal with `status` for `reason`.
    public init(status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    /// 400: the body or the clock.
    static func badRequest(_ reason: String) -> SyncServerError { SyncServerError(status: 400, reason) }
    /// 401: no token, or one that does not verify.
    static func unauthorized(_ reason: String) -> SyncServerError { SyncServerError(status: 401, reason) }
    /// 403: a space the token does not grant.
    static func forbidden(_ reason: String) -> SyncServerError { SyncServerError(status: 403, reason) }
    /// 409: a batch id already applied with other content (a device id used by two devices).
    static func conflict(_ reason: String) -> SyncServerError { SyncServerError(status: 409, reason) }
    /// 413: over a size limit.
    static func tooLarge(_ reason: String) -> SyncServerError { SyncServerError(status: 413, reason) }
    /// 422: a table or column that does not sync.
    static func unprocessable(_ reason: String) -> SyncServerError { SyncServerError(status: 422, reason) }

    /// `sync: error: REASON`.
    public var description: String { "sync: error: \(reason)" }
}
