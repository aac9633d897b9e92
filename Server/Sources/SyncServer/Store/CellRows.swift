import NIOCore
import SyncProtocol

/// A row of a space, as the cells table keys it: the table's name and the key's wire encoding.
struct RowKey: Hashable, Sendable {
    var table: String
    var key: [UInt8]
}

extension ByteBuffer {
    /// The buffer's readable bytes.
    var bytes: [UInt8] { getBytes(at: readerIndex, length: readableBytes) ?? [] }
}

extension SyncValue {
    /// The value stored in a bytea column of the cells table; a cell that does not decode is a
    /// damaged database, refused as a server error naming the row.
    static func stored(_ buffer: ByteBuffer, _ what: @autoclosure () -> String) throws -> SyncValue {
        do {
            return try SyncValue(wireEncoding: buffer.bytes)
        } catch {
            throw SyncServerError(status: 500, "the stored \(what()) does not decode: \(error)")
        }
    }
}
