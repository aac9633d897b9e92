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
import SQLiteCore

/// Comparisons of column values of two statements' current rows, read in place (no value
/// is copied): key order as SQLite sorts an index, and value identity.
enum ValueComparison {
    /// When two values are the same.
    enum Equality {
        /// Same storage class and same bits (1 and 1.0 differ, 0.0 and -0.0 differ).
        case exact
        /// SQL `IS` as sqldiff compares (an INTEGER equals the REAL of the same value).
        case sqlIs
    }

    /// SQLite's sort rank of a storage class: NULL < numbers < text < blobs.
    @inline(__always)
    static func rank(_ storage: StorageClass) -> Int {
        switch storage {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    /// Compares column `index` of `a` and `b` in index order (negative, zero, positive).
    static func compareKey(_ a: Statement, _ b: Statement, _ index: Int32, _ order: KeyColumnOrder) -> Int {
        let result = compareAscending(a, b, index, order.collation)
        return order.descending ? -result : result
    }

    private static func compareAscending(
        _ a: Statement, _ b: Statement, _ index: Int32, _ collation: KeyColumnOrder.Collation
    ) -> Int {
        let ca = a.storageClass(index), cb = b.storageClass(index)
        let ra = rank(ca), rb = rank(cb)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch ca {
        case .null:
            return 0
        case .integer, .real:
            return compareNumbers(a, ca, b, cb, index)
        case .text:
            return compareText(a.bytes(index, of: .text), b.bytes(index, of: .text), collation)
        case .blob:
            return compareBytes(a.bytes(index, of: .blob), b.bytes(index, of: .blob))
        }
    }

    private static func compareNumbers(
        _ a: Statement, _ ca: StorageClass, _ b: Statement, _ cb: StorageClass, _ index: Int32
    ) -> Int {
        switch (ca, cb) {
        case (.integer, .integer):
            let x = a.int64(index), y = b.int64(index)
            return x < y ? -1 : (x > y ? 1 : 0)
        case (.real, .real):
            let x = a.double(index), y = b.double(index)
            return x < y ? -1 : (x > y ? 1 : 0)
        case (.integer, _):
            return compareIntegerReal(a.int64(index), b.double(index))
        default:
            return -compareIntegerReal(b.int64(index), a.double(index))
        }
    }

    /// An integer against a double, exactly (no rounding of the integer to a double).
    static func compareIntegerReal(_ integer: Int64, _ real: Double) -> Int {
        if real.isNaN { return 1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        let floor = Int64(real.rounded(.down))
        if integer != floor { return integer < floor ? -1 : 1 }
        return Double(floor) < real ? -1 : 0
    }

    static func compareBytes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int {
        let common = min(x.count, y.count)
        if common > 0, let xb = x.baseAddress, let yb = y.baseAddress {
            let result = memcmp(xb, yb, common)
            if result != 0 { return result < 0 ? -1 : 1 }
        }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    private static func compareText(
        _ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer, _ collation: KeyColumnOrder.Collation
    ) -> Int {
        switch collation {
        case .binary:
            return compareBytes(x, y)
        case .rtrim:
            return compareBytes(trimmingSpaces(x), trimmingSpaces(y))
        case .nocase:
            let common = min(x.count, y.count)
            for i in 0..<common {
                let p = lowerASCII(x[i]), q = lowerASCII(y[i])
                if p != q { return p < q ? -1 : 1 }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        }
    }

    @inline(__always)
    private static func lowerASCII(_ byte: UInt8) -> UInt8 { (byte >= 65 && byte <= 90) ? byte + 32 : byte }

    private static func trimmingSpaces(_ x: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var count = x.count
        while count > 0 && x[count - 1] == 32 { count -= 1 }
        return UnsafeRawBufferPointer(rebasing: x[0..<count])
    }

    /// True when column `index` holds the same value in `a` and `b`.
    @inline(__always)
    static func same(_ a: Statement, _ b: Statement, _ index: Int32, _ equality: Equality) -> Bool {
        let x = a.value(index), y = b.value(index)
        let cx = x.storageClass, cy = y.storageClass
        if cx != cy {
            guard equality == .sqlIs else { return false }
            if cx == .integer && cy == .real { return compareIntegerReal(x.int64, y.double) == 0 }
            if cx == .real && cy == .integer { return compareIntegerReal(y.int64, x.double) == 0 }
            return false
        }
        switch cx {
        case .null: return true
        case .integer: return x.int64 == y.int64
        case .real:
            let p = x.double, q = y.double
            return equality == .exact ? p.bitPattern == q.bitPattern : p == q
        case .text, .blob:
            return compareBytes(x.bytes(as: cx), y.bytes(as: cy)) == 0
        }
    }
}
