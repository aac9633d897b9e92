/// What SQLite 3.40 stores for a text value given to a column of NUMERIC, INTEGER or REAL
/// affinity: the same number its `applyNumericAffinity` makes of it (with `sqlite3AtoF`,
/// `sqlite3Atoi64` and `sqlite3VdbeIntegerAffinity`), or the text unchanged. The page writer
/// (``ImportRecordEncoder``) stores these values itself, so they must be SQLite's to the bit;
/// `ImportNumericAffinityTests` compares them with the linked library's on millions of texts.
///
/// The rules, SQLite's: the text converts when all of it, but for spaces (`\t\n\v\f\r` and
/// space) around it, is a decimal number: a sign, digits with at most one `.`, at least one
/// digit, an optional exponent (`e`, a sign, at least one digit). No hexadecimal, no `inf`.
/// A whole number that fits in 64 bits becomes that integer; any other number the double
/// SQLite computes, which becomes an integer again when it is one exactly (and is neither the
/// smallest nor the largest 64-bit integer). SQLite computes that double from at most 18 or so
/// significant digits and a power of ten in `long double`, rounding twice; the result is the
/// same only where `long double` is what it was for the library (``isExact``).
enum ImportNumericAffinity {
    /// What a text becomes.
    enum Value: Equatable {
        case text
        case integer(Int64)
        case real(Double)
    }

    /// True where this reproduces the linked SQLite's conversion: x86 (`long double` is the
    /// 80-bit format, `Float80` here) and Apple's arm64 (`long double` is `double`). Elsewhere
    /// (Linux on arm64: a 128-bit `long double`) the page writer leaves numeric columns alone.
    static let isExact: Bool = {
        #if arch(x86_64) || arch(i386)
        return true
        #elseif arch(arm64) && canImport(Darwin)
        return true
        #else
        return false
        #endif
    }()

    /// The value SQLite stores for the `count` bytes at `text` under NUMERIC, INTEGER or REAL
    /// affinity (REAL then stores an integer as a real: ``ImportRecordEncoder``).
    ///
    /// The common shapes are settled in one pass: digits with an optional leading `-` (at most
    /// 18, so the integer is exact), the same with one point inside (a plain decimal, every
    /// digit of which SQLite takes into its significand), and texts that cannot be numbers (a
    /// letter, a `-` after the start, a second point). Spaces, `+`, exponents, and more digits
    /// go to SQLite's whole algorithm (`parseReal`, `parseInteger`).
    @inline(__always)
    static func convert(_ text: UnsafePointer<UInt8>, count: Int) -> Value {
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        let first = negative ? 1 : 0
        let length = count &- first
        if length >= 1 {
            // The first eight bytes at once (readable past the text: the arena's slack).
            let word = UInt64(littleEndian: UnsafeRawPointer(text + first).loadUnaligned(as: UInt64.self))
            let valid: UInt64 = length >= 8 ? ~0 : (1 &<< (8 &* UInt64(length))) &- 1
            let digits = (word ^ 0x3030_3030_3030_3030) & valid
            let others = ImportByteSearch.bytesAbove9(digits) & valid
            if others == 0 && length <= 8 {
                let value = Int64(ImportByteSearch.decimalValue(digits, count: length))
                return .integer(negative ? -value : value)
            }
            let at = others.trailingZeroBitCount &>> 3
            if others != 0 && text[first &+ at] == UInt8(ascii: ".") && length <= 8 && at > 0 && at < length &- 1
                && others & (others &- 1) == 0
            {
                // A plain decimal: the digits without the point.
                let below: UInt64 = (1 &<< (8 &* UInt64(at))) &- 1
                let significand = ImportByteSearch.decimalValue(
                    (digits & below) | ((digits &>> 8) & ~below), count: length &- 1)
                return decimal(Int64(significand), negative: negative, fractionDigits: length &- 1 &- at)
            }
            if others != 0 {
                let byte = text[first &+ at]
                // Past digits only, a byte no number has there (a `-` in a date, a letter).
                if byte != UInt8(ascii: ".") { return otherByte(byte, text, count: count) }
            }
        }
        var index = first
        var significand: Int64 = 0
        var point = -1
        while index < count {
            let byte = text[index]
            let digit = byte &- 0x30
            if digit <= 9 {
                significand = significand &* 10 &+ Int64(digit)
            } else if byte == UInt8(ascii: ".") && point < 0 {
                point = index
            } else {
                return otherByte(byte, text, count: count)
            }
            index &+= 1
        }
        let digits = count &- first &- (point < 0 ? 0 : 1)
        guard digits > 0 && digits <= 18 else { return convertSlowly(text, count: count) }
        if point < 0 { return .integer(negative ? -significand : significand) }
        guard point > first && point < count &- 1 else { return convertSlowly(text, count: count) }
        return decimal(significand, negative: negative, fractionDigits: count &- 1 &- point)
    }

    /// A byte that is neither a digit nor the first point: a space, `+` or an exponent may
    /// still make a number (SQLite's whole algorithm decides); anything else cannot.
    @inline(never)
    private static func otherByte(_ byte: UInt8, _ text: UnsafePointer<UInt8>, count: Int) -> Value {
        if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) || byte == UInt8(ascii: "+")
            || byte | 0x20 == UInt8(ascii: "e")
        {
            return convertSlowly(text, count: count)
        }
        return .text
    }

    /// A plain decimal's value: ±digits / 10^fractionDigits as `sqlite3AtoF` computes it (the
    /// trailing zeros taken off the exponent first, the quotient rounded to `long double`, then
    /// to a double), then ``integerAffinity(_:)``.
    ///
    /// The double division gives the same double, and is much faster, unless the quotient lies
    /// within half a `long double` unit of a point halfway between two doubles (only there can
    /// rounding twice differ from rounding once): its remainder, exact with a fused
    /// multiply-add, tells how far it lies; near such a point the `long double` division decides.
    @inline(never)
    private static func decimal(_ digits: Int64, negative: Bool, fractionDigits: Int) -> Value {
        if digits == 0 { return .integer(0) } // -0.0 and 0.0 alike
        var significand = digits
        var exponent = fractionDigits
        while exponent > 0 && significand % 10 == 0 {
            significand /= 10
            exponent -= 1
        }
        if negative { significand = -significand }
        if exponent == 0 { return integerAffinity(Double(significand)) } // rounded above 2^53
        if significand.magnitude < 1 << 53 {
            let dividend = Double(significand), divisor = doublePowersOfTen[exponent]
            let quotient = dividend / divisor
            let remainder = dividend.addingProduct(-quotient, divisor)
            // The binade below a power of two has units half as big.
            let unit = quotient.significandBitPattern == 0 ? quotient.ulp / 2 : quotient.ulp
            if remainder.magnitude < divisor * unit * 0.499 { return integerAffinity(quotient) }
        }
        return integerAffinity(Double(LongDouble(significand) / powersOfTen[exponent]))
    }

    /// 10^0 … 10^18 as doubles, each exact.
    private static let doublePowersOfTen: [Double] = (0...18).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// 10^0 … 10^18, each exact (as ``powerOfTen(_:)`` makes them).
    private static let powersOfTen: [LongDouble] = (0...18).map { exponent in
        (0..<exponent).reduce(LongDouble(1)) { value, _ in value * 10 }
    }

    private static func convertSlowly(_ text: UnsafePointer<UInt8>, count: Int) -> Value {
        let (kind, real) = parseReal(text, count: count)
        if kind <= 0 { return .text }
        // A whole number (no point, no exponent): the integer, when it fits.
        if kind == 1, let integer = parseInteger(text, count: count) { return .integer(integer) }
        return integerAffinity(real)
    }

    /// `sqlite3VdbeIntegerAffinity`: the real as an integer when it is one exactly and neither
    /// the smallest nor the largest 64-bit integer, else the real.
    @inline(__always)
    static func integerAffinity(_ real: Double) -> Value {
        let integer: Int64
        if real <= -9_223_372_036_854_775_808.0 {
            integer = .min
        } else if real >= 9_223_372_036_854_775_807.0 {
            integer = .max
        } else {
            integer = Int64(real)
        }
        if real == Double(integer) && integer > .min && integer < .max { return .integer(integer) }
        return .real(real)
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int64? {
        let value = byte &- 0x30
        return value <= 9 ? Int64(value) : nil
    }

    /// `sqlite3Atoi64` for a text `parseReal` found a whole number (spaces, a sign, digits,
    /// spaces): its value when it fits in 64 bits, nil when it does not.
    private static func parseInteger(_ text: UnsafePointer<UInt8>, count: Int) -> Int64? {
        var index = 0
        while index < count && isSpace(text[index]) { index += 1 }
        var negative = false
        if index < count && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var magnitude: UInt64 = 0
        while index < count, let value = digit(text[index]) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(value))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
            index += 1
        }
        if magnitude <= UInt64(Int64.max) { return negative ? -Int64(magnitude) : Int64(magnitude) }
        return negative && magnitude == UInt64(Int64.max) + 1 ? .min : nil
    }

    /// The 64-bit significand bound of `sqlite3AtoF`: digits beyond it only move the exponent.
    private static let significandLimit: Int64 = (Int64.max - 9) / 10

    /// `sqlite3AtoF` for UTF-8: the kind (1: a whole number, 2: with a point or an exponent, 3:
    /// with both; 0 or less: not a number, all of it) and the double SQLite computes.
    static func parseReal(_ text: UnsafePointer<UInt8>, count: Int) -> (kind: Int, value: Double) {
        if count == 0 { return (0, 0) }
        var index = 0
        while index < count && isSpace(text[index]) { index += 1 }
        if index >= count { return (0, 0) }
        var negative = false
        if text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        } else if text[index] == UInt8(ascii: "+") {
            index += 1
        }
        var significand: Int64 = 0
        var shift = 0 // SQLite's `d`: how the digits move the exponent
        var digits = 0
        var kind = 1
        var exponentValid = true
        var exponent = 0
        var exponentNegative = false
        scan: do {
            while index < count, let value = digit(text[index]) {
                significand = significand * 10 + value
                index += 1
                digits += 1
                if significand >= significandLimit {
                    while index < count && digit(text[index]) != nil {
                        index += 1
                        shift += 1
                    }
                }
            }
            if index >= count { break scan }
            if text[index] == UInt8(ascii: ".") {
                index += 1
                kind += 1
                while index < count, let value = digit(text[index]) {
                    if significand < significandLimit {
                        significand = significand * 10 + value
                        shift -= 1
                        digits += 1
                    }
                    index += 1
                }
            }
            if index >= count { break scan }
            if text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
                index += 1
                exponentValid = false
                kind += 1
                if index >= count { break scan }
                if text[index] == UInt8(ascii: "-") {
                    exponentNegative = true
                    index += 1
                } else if text[index] == UInt8(ascii: "+") {
                    index += 1
                }
                while index < count, let value = digit(text[index]) {
                    exponent = exponent < 10000 ? exponent * 10 + Int(value) : 10000
                    index += 1
                    exponentValid = true
                }
            }
            while index < count && isSpace(text[index]) { index += 1 }
        }
        // Not a number, all of it: the double is of no use (SQLite computes it all the same).
        guard index == count && digits > 0 && exponentValid else { return (0, 0) }
        let value = compute(
            significand: significand, negative: negative,
            exponent: (exponentNegative ? -exponent : exponent) + shift)
        return (kind, value)
    }

    /// `sqlite3AtoF`'s arithmetic: ±significand × 10^exponent.
    private static func compute(significand: Int64, negative: Bool, exponent: Int) -> Double {
        if significand == 0 { return negative ? -0.0 : 0.0 }
        var s = significand
        var e = exponent < 0 ? -exponent : exponent
        let down = exponent < 0
        while e > 0 {
            if !down {
                if s >= Int64.max / 10 { break }
                s *= 10
            } else {
                if s % 10 != 0 { break }
                s /= 10
            }
            e -= 1
        }
        if negative { s = -s }
        if e == 0 { return Double(s) }
        return scaled(s, e, down: down)
    }

    #if arch(x86_64) || arch(i386)
    /// SQLite's `LONGDOUBLE_TYPE` where it is the 80-bit format.
    typealias LongDouble = Float80
    #else
    /// SQLite's `LONGDOUBLE_TYPE` where it is `double` (``isExact`` says where else it is not).
    typealias LongDouble = Double
    #endif

    /// s × 10^e or s / 10^e (e > 0) as SQLite computes it: the power of ten in `long double`
    /// (``powerOfTen(_:)``), one `long double` operation, rounded to a double; past 10^307 in
    /// two steps, the second in double.
    private static func scaled(_ s: Int64, _ exponent: Int, down: Bool) -> Double {
        if exponent > 307 {
            if exponent >= 342 {
                return down ? 0.0 * Double(s) : Double.infinity * Double(s)
            }
            let scale = powerOfTen(exponent - 308)
            if down {
                var result = Double(LongDouble(s) / scale)
                result /= 1.0e308
                return result
            }
            var result = Double(LongDouble(s) * scale)
            result *= 1.0e308
            return result
        }
        let scale = powerOfTen(exponent)
        return down ? Double(LongDouble(s) / scale) : Double(LongDouble(s) * scale)
    }

    /// SQLite's `sqlite3Pow10`: 10^e in `long double` by squaring (10, 10^2, 10^4, …, each
    /// rounded), multiplying in the squares of e's one bits, lowest first. Exact to 10^27.
    private static func powerOfTen(_ exponent: Int) -> LongDouble {
        var factor: LongDouble = 10
        var result: LongDouble = 1
        var e = exponent
        while true {
            if e & 1 != 0 { result *= factor }
            e >>= 1
            if e == 0 { break }
            factor *= factor
        }
        return result
    }
}
