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
import LayeredDatabase
import SyncProtocol

/// One sync (docs/Sync.md, "One sync"): repeat { freeze (or resend) a batch; send it with the
/// cursor; apply the answer } until the rows that had outbox entries when the sync started are
/// all acknowledged and the server says nothing more is waiting. With nothing to send and
/// nothing new, that is one request. Cancellation is honoured between requests: what was
/// applied stays, the batch in flight is sent again next time.
struct SyncRun {
    let databasePath: String
    let serverURL: URL
    let token: @Sendable () async throws -> String
    let configuration: SyncConfiguration
    let transport: any SyncTransport
    /// Milliseconds since 1970: the request's `clock`, the offset's estimate, conflict times.
    let clock: @Sendable () -> Int64

    static let contentType = "application/x-shipyard-sync"
    /// The header every answer of the server carries: its clock, in milliseconds since 1970.
    static let clockHeader = "shipyard-sync-clock"

    func run() async throws -> SyncReport {
        let store = try SyncStore(path: databasePath)
        let connection = store.connection
        let conflicts = ConflictLog(connection, now: clock)
        let rows = LocalRows(connection, conflicts: conflicts)
        let applier = AnswerApplier(connection: connection, schema: store.schema, rows: rows)
        let freezer = BatchFreezer(connection: connection, schema: store.schema, maximumRows: configuration.batchRows)
        try store.run { try BatchFreezer.rememberStart(connection) }
        try store.resetCursorIfSchemaChanged()
        var device = try store.deviceID()
        var report = SyncReport()
        var clockRetries = 0
        var deviceRetries = 0
        while true {
            if Task.isCancelled { throw SyncClientError.cancelled }
            guard report.requests < configuration.maximumRequests else {
                throw SyncClientError.invalidAnswer(
                    "still more to pull after \(report.requests) requests (SyncConfiguration.maximumRequests)")
            }
            let frozen = try store.run { try freezer.freeze() }
            let state = try store.state()
            // The device's clock as corrected by its offset: what it believes the server's is.
            let request = SyncRequest(
                device: device, cursor: state.cursor, clock: UInt64(max(clock() &+ state.offsetMilliseconds, 0)),
                limit: configuration.pullLimit, batch: frozen?.batch)
            let body = request.encoded()
            let answer = try await transport.send(try await httpRequest(body))
            report.requests += 1
            report.bytesSent += body.count
            report.bytesReceived += answer.body.count
            let local = clock()
            let serverClock = answer.headers[Self.clockHeader].flatMap { Int64($0) }
            switch answer.status {
            case 200:
                break
            case 400
            where clockRetries < 2 && serverClock.map { abs($0 - (local + state.offsetMilliseconds)) > 1000 } == true:
                // The device's clock runs ahead of the server's: correct, re-stamp, send again.
                clockRetries += 1
                try store.correctClock(serverMilliseconds: serverClock ?? local, localMilliseconds: local)
                continue
            case 409 where deviceRetries < 1:
                // The device id is another device's (a backup restored elsewhere): make a new one.
                deviceRetries += 1
                device = try store.deviceID(renew: true)
                continue
            default:
                throw SyncClientError.refused(status: answer.status, reason: Self.reason(answer.body))
            }
            let decoded = try decode(answer)
            var offset = state.offsetMilliseconds
            if abs(Int64(clamping: decoded.clock) - (local + offset)) > 1000 {
                offset = Int64(clamping: decoded.clock) - local
            }
            let outcome = try store.run {
                try applier.apply(
                    decoded, sent: frozen,
                    state: AnswerApplier.StateUpdate(offsetMilliseconds: offset, repairOrphans: !decoded.more))
            }
            report.sent += outcome.acknowledged
            report.received += outcome.received
            clockRetries = 0
            if !decoded.more, !(try store.run { try BatchFreezer.startRowsRemain(connection) }) { break }
        }
        report.conflicts = conflicts.count
        report.cursor = try store.state().cursor
        return report
    }

    /// The HTTP request carrying `body`, with a fresh token.
    private func httpRequest(_ body: [UInt8]) async throws -> SyncHTTPRequest {
        let bearer: String
        do {
            bearer = try await token()
        } catch let error as SyncClientError {
            throw error
        } catch {
            throw SyncClientError.token("the token provider failed: \(error)")
        }
        return SyncHTTPRequest(
            url: serverURL.appendingPathComponent("v1").appendingPathComponent("sync"),
            headers: [
                ("Content-Type", Self.contentType), ("Accept", Self.contentType), ("Accept-Encoding", "identity"),
                ("Authorization", "Bearer \(bearer)"),
            ],
            body: body, idleTimeout: configuration.idleTimeout, deadline: configuration.requestDeadline,
            maximumAnswerBytes: configuration.maximumAnswerBytes)
    }

    /// The answer of a 200, checked and decoded.
    private func decode(_ answer: SyncHTTPAnswer) throws -> SyncAnswer {
        let type = answer.headers["content-type"] ?? ""
        guard type.split(separator: ";").first.map({ String($0).trimmingSpacesAndTabs() }) == Self.contentType
        else {
            throw SyncClientError.invalidAnswer("the answer's Content-Type is '\(type)', not \(Self.contentType)")
        }
        do {
            let limits = SyncLimits(
                bodyBytes: configuration.maximumAnswerBytes,
                inflatedBytes: max(configuration.maximumAnswerBytes, 32 << 20))
            return try SyncAnswer(decoding: answer.body, limits: limits)
        } catch {
            throw SyncClientError.invalidAnswer("\(error)")
        }
    }

    /// The reason a refusal's `text/plain` body gives (`sync: error: WHY`), at most 500 characters.
    static func reason(_ body: [UInt8]) -> String {
        var text = String(decoding: body.prefix(2000), as: UTF8.self).trimmingWhitespaceAndNewlines()
        if text.hasPrefix("sync: error: ") { text.removeFirst("sync: error: ".count) }
        if text.isEmpty { return "no reason given" }
        return text.count > 500 ? String(text.prefix(500)) + "…" : text
    }
}
