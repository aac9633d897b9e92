/// Appends the wire format's primitives (docs/Sync.md, "The wire format") to a byte array.
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    /// Unsigned LEB128, shortest form.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func varint(_ value: Int) { varint(UInt64(value)) }

    /// Zigzag, then varint.
    mutating func svarint(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func bytes<Bytes: Collection>(_ value: Bytes) where Bytes.Element == UInt8 {
        varint(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func text(_ value: String) { bytes(value.utf8) }

    /// A value: its tag byte and payload; integers 0–63 as one byte, canonical UUID text as 16 bytes.
    mutating func value(_ value: SyncValue) {
        switch value {
        case .null: u8(0x00)
        case .integer(let integer):
            if integer >= 0 && integer <= 63 {
                u8(0x40 | UInt8(integer))
            } else {
                u8(0x01)
                svarint(integer)
            }
        case .real(let real):
            u8(0x02)
            var bits = real.bitPattern
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        case .text(let text):
            if let (uuid, uppercase) = UUIDText.parse(text) {
                u8(uppercase ? 0x06 : 0x05)
                bytes.append(contentsOf: uuid)
            } else {
                u8(0x03)
                self.text(text)
            }
        case .blob(let blob):
            u8(0x04)
            bytes(blob)
        }
    }

    /// A table list: count, then each name and its columns.
    mutating func tables(_ tables: [SyncTableColumns]) {
        varint(tables.count)
        for table in tables {
            text(table.name)
            varint(table.columns.count)
            for column in table.columns { text(column) }
        }
    }
}

/// TEXT that is a canonical UUID (`8-4-4-4-12` hex digits, one case), sent as its 16 bytes.
enum UUIDText {
    /// The 16 bytes of `text` and whether its letters are uppercase, when it is a canonical UUID in
    /// one case (digits only count as lowercase); else nil.
    static func parse(_ text: String) -> ([UInt8], Bool)? {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(16)
        var sawLower = false
        var sawUpper = false
        var pending: UInt8? = nil
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66:
                digit = byte - 0x61 + 10
                sawLower = true
            case 0x41...0x46:
                digit = byte - 0x41 + 10
                sawUpper = true
            default: return nil
            }
            if let high = pending {
                out.append(high << 4 | digit)
                pending = nil
            } else {
                pending = digit
            }
        }
        if sawLower && sawUpper { return nil }
        return (out, sawUpper)
    }

    /// The canonical text of 16 `bytes`, in lowercase or uppercase.
    static func format<Bytes: Collection>(_ bytes: Bytes, uppercase: Bool) -> String where Bytes.Element == UInt8 {
        let digits: [UInt8] = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
