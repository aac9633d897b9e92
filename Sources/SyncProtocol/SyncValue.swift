/// A value of a synced cell or key, as SQLite stores it: NULL, INTEGER, REAL, TEXT or BLOB.
///
/// Equality and hashing of ``real(_:)`` compare the 64 bits (IEEE 754 binary64) exactly: `-0.0`
/// differs from `0.0`, and a NaN equals the NaN with the same bits. The wire carries REAL bit
/// for bit, so what a device sent is what every other device receives.
public enum SyncValue: Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A binary64 floating-point number, kept bit for bit.
    case real(Double)
    /// Text (valid UTF-8).
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// The integer of an ``integer(_:)``, else nil.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

extension SyncValue: Hashable {
    public static func == (lhs: SyncValue, rhs: SyncValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .real(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value.bitPattern)
        case .text(let value):
            hasher.combine(3 as UInt8)
            for byte in value.utf8 { hasher.combine(byte) }
        case .blob(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value)
        }
    }
}

extension SyncValue: CustomStringConvertible {
    /// The value as SQL would write it (text quoted, a blob as `X'…'`), for messages and tests.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let value): return "'" + value.replacingAll("'", with: "''") + "'"
        case .blob(let value): return "X'" + value.map { Self.hex($0) }.joined() + "'"
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

extension String {
    /// The string with every `target` scalar replaced, scalar by scalar (Foundation-free): a
    /// quote followed by a combining mark is one Character with it, which a comparison of
    /// Characters would not find, and would leave single.
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == target { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }
}
