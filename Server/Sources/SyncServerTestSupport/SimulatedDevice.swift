import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SyncProtocol

/// A device speaking the wire format to a sync server, built from SyncProtocol's messages alone:
/// its id, cursor, batch ids and clock, and a replica of what it has seen (its own changes and
/// every pulled row), so tests can compare devices with each other and with the server.
public final class SimulatedDevice: @unchecked Sendable {
    /// What a request came back with.
    public struct Reply: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The body.
        public var body: [UInt8]
        /// The headers, by lowercased name.
        public var headers: [String: String] = [:]
        /// The body as text (an error's `sync: error: WHY`).
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The device's id.
    public var id: SyncDeviceID
    /// Its bearer token.
    public var token: String
    /// The server it talks to, `http://127.0.0.1:PORT`.
    public var baseURL: String
    /// The `seq` it has applied up to.
    public var cursor: UInt64 = 0
    /// The next batch id.
    public var nextBatch: UInt64 = 1
    /// The greatest HLC it has made or seen.
    public var hlcMax: HLC = .zero
    /// Its view of the space: table → key → column → value (rows present only).
    public var replica: [String: [SyncValue: [String: SyncValue]]] = [:]
    /// The reply to the last request ``send(_:)`` made.
    public private(set) var lastReply: Reply?
    /// A shared HTTP client.
    public static let http = HTTPClient(eventLoopGroupProvider: .singleton)

    /// A device with a random id talking to `baseURL` with `token`.
    public init(baseURL: String, token: String, id: SyncDeviceID = .random()) {
        self.baseURL = baseURL
        self.token = token
        self.id = id
    }

    /// The stamp of a new edit: after everything the device has seen (`offset` ms ahead of now).
    public func stamp(offsetMilliseconds: Int64 = 0) -> HLC {
        hlcMax = HLC.stamp(nowMilliseconds: Self.now(), offsetMilliseconds: offsetMilliseconds, after: hlcMax)
        return hlcMax
    }

    /// Milliseconds since 1970.
    public static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// The request for `rows` over `tables` as the next batch (none when `rows` is empty).
    public func request(_ tables: [SyncTableColumns] = [], _ rows: [SyncRowChange] = [], limit: UInt64 = 0)
        -> SyncRequest
    {
        var request = SyncRequest(device: id, cursor: cursor, clock: UInt64(Self.now()), limit: limit)
        if !rows.isEmpty {
            request.batch = SyncBatch(id: nextBatch, tables: tables, rows: rows)
        }
        return request
    }

    /// Sends `request`; on 200 applies the answer (cursor, clock, pulled rows) and, when it
    /// acknowledges the batch, advances the batch id and applies the batch's own values locally.
    @discardableResult
    public func send(_ request: SyncRequest) async throws -> SyncAnswer {
        let reply = try await post(request.encoded())
        lastReply = reply
        guard reply.status == 200 else { throw Refused(status: reply.status, message: reply.text) }
        let answer = try SyncAnswer(decoding: reply.body)
        if let batch = request.batch, answer.batch == batch.id {
            nextBatch = batch.id + 1
            applyOwn(batch)
            for result in answer.results { applyResult(result, batch: batch) }
        }
        apply(answer)
        return answer
    }

    /// Sends `rows` as the next batch.
    @discardableResult
    public func send(_ tables: [SyncTableColumns], _ rows: [SyncRowChange], limit: UInt64 = 0) async throws
        -> SyncAnswer
    {
        try await send(request(tables, rows, limit: limit))
    }

    /// Pulls until the server says nothing more is waiting.
    public func pullAll(limit: UInt64 = 0) async throws {
        while try await send(request(limit: limit)).more {}
    }

    /// POSTs `body` to `/v1/sync` with the device's token (or `authorization`; empty: no
    /// Authorization header) and `headers`.
    public func post(_ body: [UInt8], authorization: String? = nil, headers: [(String, String)] = []) async throws
        -> Reply
    {
        var request = HTTPClientRequest(url: baseURL + "/v1/sync")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-shipyard-sync")
        let authorization = authorization ?? "Bearer \(token)"
        if !authorization.isEmpty { request.headers.add(name: "Authorization", value: authorization) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await Self.http.execute(request, timeout: .seconds(60))
        var buffer = try await response.body.collect(upTo: 256 << 20)
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        return Reply(
            status: Int(response.status.code), body: buffer.readBytes(length: buffer.readableBytes) ?? [],
            headers: headers)
    }

    /// A refused request: its status and message.
    public struct Refused: Error, CustomStringConvertible {
        public var status: Int
        public var message: String
        public var description: String { "HTTP \(status): \(message)" }
    }

    private func applyOwn(_ batch: SyncBatch) {
        for row in batch.rows {
            let table = batch.tables[row.table]
            for cell in row.cells {
                switch cell.change {
                case .row(let exists):
                    if exists {
                        if replica[table.name]?[row.key] == nil { replica[table.name, default: [:]][row.key] = [:] }
                    } else {
                        replica[table.name]?[row.key] = nil
                    }
                case .value(let value):
                    replica[table.name, default: [:]][row.key, default: [:]][table.columns[cell.column - 1]] = value
                case .increment(let delta):
                    let column = table.columns[cell.column - 1]
                    let old = replica[table.name]?[row.key]?[column]?.integerValue ?? 0
                    replica[table.name, default: [:]][row.key, default: [:]][column] = .integer(old &+ delta)
                }
            }
        }
    }

    private func applyResult(_ result: SyncResult, batch: SyncBatch) {
        let row = batch.rows[result.row]
        let table = batch.tables[row.table]
        if result.column == 0 {
            if result.server == .integer(0) { replica[table.name]?[row.key] = nil }
        } else if replica[table.name]?[row.key] != nil {
            replica[table.name]?[row.key]?[table.columns[result.column - 1]] = result.server
        }
    }

    /// Applies an answer's pull, cursor and clock: a deleted row cell deletes the row; other
    /// rows are inserted or updated with the pulled values.
    public func apply(_ answer: SyncAnswer) {
        for row in answer.rows {
            let table = answer.tables[row.table]
            if row.cells.contains(SyncPulledCell(column: 0, content: .row(exists: false))) {
                replica[table.name]?[row.key] = nil
                continue
            }
            var values = replica[table.name]?[row.key] ?? [:]
            for cell in row.cells where cell.column > 0 {
                if case .value(let value) = cell.content { values[table.columns[cell.column - 1]] = value }
            }
            replica[table.name, default: [:]][row.key] = values
        }
        cursor = answer.cursor
        if answer.hlc > hlcMax { hlcMax = answer.hlc }
    }
}
