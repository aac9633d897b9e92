#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns one record of a batch into the record SQLite's insert would store for it (the record
/// format, <https://www.sqlite.org/fileformat2.html#record_format>) and its rowid, with the
/// affinities of ``ImportPageTarget`` applied as SQLite applies them
/// (``ImportNumericAffinity``). A record it cannot vouch for (a NULL in a NOT NULL column, a key
/// out of order or not an integer, a value too long) is refused, and SQLite's insert path takes
/// over from it (``ImportPageImport``).
///
/// One pass over the values writes the header's serial types and the body side by side; the
/// record stays in the encoder until the next ``encode(base:starts:lengths:field:checkNul:)``,
/// ``ImportTableTreeWriter`` copies it into a page from there, then ``commit()`` makes its rowid
/// the largest.
final class ImportRecordEncoder {
    /// What the last encoded record is, and the rowids so far.
    struct State {
        var rowid: Int64 = 0
        /// The serial types (without the header's size varint): `headerBytes` of them.
        var headerBytes = 0
        /// The body: `bodyBytes` of it.
        var bodyBytes = 0
        /// The record header's size, with its own size varint.
        var headerSize = 0
        /// The header and the body.
        var payloadSize = 0
        /// The largest rowid of the records committed (`hasRowid` false: none yet, the next is 1).
        var largestRowid: Int64 = 0
        var hasRowid = false
        /// The body buffer's size.
        var bodyCapacity = 0
    }

    /// The encoder's state (behind a pointer: the inner loop pays no exclusivity checks).
    let state: UnsafeMutablePointer<State>
    /// The serial types of the last record (9 bytes a value at most).
    let header: UnsafeMutablePointer<UInt8>
    /// The body of the last record (grown for long values).
    private(set) var body: UnsafeMutablePointer<UInt8>
    let columnCount: Int

    private static let textKind: UInt8 = 0, numericKind: UInt8 = 1, realKind: UInt8 = 2, rowidKind: UInt8 = 3
    private let kinds: UnsafeMutablePointer<UInt8>
    private let notNull: UnsafeMutablePointer<Bool>
    /// Schema format 4 or more: 0 and 1 take no bytes (serial types 8 and 9).
    private let smallIntegers: Bool
    /// `SQLITE_LIMIT_LENGTH`: a longer value or record is SQLite's to refuse.
    private let lengthLimit: Int

    init(target: ImportPageTarget, schemaFormat: Int, lengthLimit: Int) {
        columnCount = target.columns.count
        let count = max(columnCount, 1)
        header = .allocate(capacity: 9 * count)
        kinds = .allocate(capacity: count)
        notNull = .allocate(capacity: count)
        for (index, column) in target.columns.enumerated() {
            switch column {
            case .text: kinds[index] = Self.textKind
            case .numeric: kinds[index] = Self.numericKind
            case .real: kinds[index] = Self.realKind
            case .rowid: kinds[index] = Self.rowidKind
            }
            notNull[index] = target.notNull[index]
        }
        smallIntegers = schemaFormat >= 4
        self.lengthLimit = lengthLimit
        state = .allocate(capacity: 1)
        state.initialize(to: State(bodyCapacity: 4096))
        body = .allocate(capacity: 4096)
    }

    deinit {
        header.deallocate()
        body.deallocate()
        kinds.deallocate()
        notNull.deallocate()
        state.deallocate()
    }

    /// Encodes the record whose first field is `field`; returns false, changing no rowid, when
    /// SQLite must insert it.
    func encode(
        base: UnsafeMutablePointer<UInt8>, starts: UnsafeMutablePointer<Int>, lengths: UnsafeMutablePointer<Int>,
        field: Int, checkNul: Bool
    ) -> Bool {
        let largest: Int64? = state.pointee.hasRowid ? state.pointee.largestRowid : nil
        var rowid: Int64?
        var headerBytes = 0
        var bodyBytes = 0
        var out = body
        for column in 0..<columnCount {
            let length = lengths[field + column]
            let kind = kinds[column]
            var serial: UInt64 = 0
            if length >= 0 {
                let text = UnsafePointer(base + starts[field + column])
                var count = length
                if checkNul, count > 0, let nul = memchr(text, 0, count) {
                    count = UnsafeRawPointer(nul) - UnsafeRawPointer(text)
                }
                if count > lengthLimit { return false }
                if bodyBytes &+ count &+ 8 > state.pointee.bodyCapacity {
                    growBody(bodyBytes &+ count &+ 8)
                    out = body
                }
                let at = out + bodyBytes
                if kind == Self.textKind {
                    serial = UInt64(count) &* 2 &+ 13
                    copyBytes(from: text, to: at, count: count)
                    bodyBytes &+= count
                } else if kind == Self.rowidKind {
                    // MustBeInt: the key must be an integer under NUMERIC affinity, and come after
                    // every rowid so far (else SQLite searches for it, or refuses it).
                    guard case .integer(let key) = ImportNumericAffinity.convert(text, count: count),
                        largest.map({ key > $0 }) ?? true
                    else { return false }
                    rowid = key
                } else {
                    switch ImportNumericAffinity.convert(text, count: count) {
                    case .text:
                        serial = UInt64(count) &* 2 &+ 13
                        copyBytes(from: text, to: at, count: count)
                        bodyBytes &+= count
                    case .integer(let value):
                        serial = integerSerial(value)
                        if serial == 6 && kind == Self.realKind {
                            // REAL affinity: an 8-byte integer is stored as the real it stands for.
                            serial = 7
                            putBigEndian(Double(value).bitPattern, bytes: 8, at)
                            bodyBytes &+= 8
                        } else {
                            let size = Self.fixedSize(serial)
                            putBigEndian(UInt64(bitPattern: value), bytes: size, at)
                            bodyBytes &+= size
                        }
                    case .real(let value):
                        serial = 7
                        putBigEndian(value.bitPattern, bytes: 8, at)
                        bodyBytes &+= 8
                    }
                }
            } else if notNull[column] {
                return false
            }
            if serial < 128 {
                header[headerBytes] = UInt8(truncatingIfNeeded: serial)
                headerBytes &+= 1
            } else {
                headerBytes &+= putVarint(serial, header + headerBytes)
            }
        }
        if rowid == nil {
            // A new rowid: one more than the largest (1 in an empty table); at the largest
            // possible rowid SQLite picks one at random.
            guard let next = largest.map({ $0 < .max ? $0 + 1 : nil }) ?? 1 else { return false }
            rowid = next
        }
        // The header's own size, as SQLite counts it (OP_MakeRecord).
        var headerSize = headerBytes
        if headerSize <= 126 {
            headerSize += 1
        } else {
            let sizeLength = varintLength(UInt64(headerSize))
            headerSize += sizeLength
            if sizeLength < varintLength(UInt64(headerSize)) { headerSize += 1 }
        }
        if headerSize + bodyBytes > lengthLimit { return false }
        state.pointee.rowid = rowid ?? 0
        state.pointee.headerBytes = headerBytes
        state.pointee.bodyBytes = bodyBytes
        state.pointee.headerSize = headerSize
        state.pointee.payloadSize = headerSize + bodyBytes
        return true
    }

    /// The record encoded last is in the table: its rowid is the largest. A body grown for a
    /// long value is given back.
    @inline(__always)
    func commit() {
        state.pointee.largestRowid = state.pointee.rowid
        state.pointee.hasRowid = true
        if state.pointee.bodyCapacity > 1 << 20 { shrinkBody() }
    }

    /// Writes the record (header size, serial types, body) at `out`.
    @inline(__always)
    func writeRecord(to out: UnsafeMutablePointer<UInt8>) {
        let record = state.pointee
        let sizeLength = putVarint(UInt64(record.headerSize), out)
        copyBytes(from: header, to: out + sizeLength, count: record.headerBytes)
        (out + record.headerSize).update(from: body, count: record.bodyBytes)
    }

    private func growBody(_ minimum: Int) {
        var capacity = state.pointee.bodyCapacity * 2
        while capacity < minimum { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: body, count: state.pointee.bodyCapacity)
        body.deallocate()
        body = grown
        state.pointee.bodyCapacity = capacity
    }

    private func shrinkBody() {
        body.deallocate()
        body = .allocate(capacity: 4096)
        state.pointee.bodyCapacity = 4096
    }

    /// The body bytes of serial types 0 to 11 (10 and 11 are reserved, never written).
    @inline(__always)
    static func fixedSize(_ serial: UInt64) -> Int {
        switch serial {
        case 1, 2, 3, 4: return Int(serial)
        case 5: return 6
        case 6, 7: return 8
        default: return 0
        }
    }

    /// The serial type of an integer (the smallest that holds it).
    @inline(__always)
    private func integerSerial(_ value: Int64) -> UInt64 {
        let magnitude = value < 0 ? ~UInt64(bitPattern: value) : UInt64(value)
        if magnitude <= 127 {
            return smallIntegers && (value == 0 || value == 1) ? 8 + UInt64(value) : 1
        }
        if magnitude <= 32767 { return 2 }
        if magnitude <= 8_388_607 { return 3 }
        if magnitude <= 2_147_483_647 { return 4 }
        if magnitude <= 140_737_488_355_327 { return 5 }
        return 6
    }
}

/// The bytes of `value` as an SQLite varint.
@inline(__always)
func varintLength(_ value: UInt64) -> Int {
    if value <= 0x7F { return 1 }
    if value <= 0x3FFF { return 2 }
    if value <= 0x1F_FFFF { return 3 }
    if value <= 0xFFF_FFFF { return 4 }
    if value <= 0x7_FFFF_FFFF { return 5 }
    if value <= 0x3FF_FFFF_FFFF { return 6 }
    if value <= 0x1_FFFF_FFFF_FFFF { return 7 }
    if value <= 0xFF_FFFF_FFFF_FFFF { return 8 }
    return 9
}
