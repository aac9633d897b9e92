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

/// One SQLite value, as stored in a column or bound to a parameter.
///
/// The cases mirror SQLite's five storage classes. Literals work where a value is
/// expected: `nil`, `42`, `1.5` and `"text"` become `.null`, `.integer`, `.real` and `.text`.
public enum DatabaseValue: Equatable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob(Data)

    /// The bytes the sqlite3 shell prints for this value in list mode: NULL as nothing,
    /// reals with up to 15 significant digits and always a decimal point (`1.0`, `1.0e+20`),
    /// text and blobs as their raw bytes up to the first NUL byte (the shell prints C strings).
    public var shellBytes: Data {
        switch self {
        case .null: return Data()
        case .integer(let value): return Data(String(value).utf8)
        case .real(let value): return Data(DatabaseValue.formatReal(value).utf8)
        case .text(let value): return Data(value.utf8.prefix { $0 != 0 })
        case .blob(let bytes): return bytes.prefix { $0 != 0 }
        }
    }

    /// ``shellBytes`` decoded as UTF-8 (invalid sequences become U+FFFD).
    public var shellText: String { String(decoding: shellBytes, as: UTF8.self) }

    /// Formats a double like SQLite's `%!.15g`.
    static func formatReal(_ value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-Inf" : "Inf" }
        if value.isNaN { return "" }
        var text = PrintfFormat.string("%.15g", value)
        if let e = text.firstIndex(of: "e") {
            let mantissa = text[..<e]
            if !mantissa.contains(".") { text.insert(contentsOf: ".0", at: e) }
        } else if !text.contains(".") {
            text += ".0"
        }
        return text
    }
}

extension DatabaseValue: ExpressibleByNilLiteral {
    /// `nil` is SQL NULL.
    public init(nilLiteral: ()) { self = .null }
}

extension DatabaseValue: ExpressibleByIntegerLiteral {
    /// An integer literal is an `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension DatabaseValue: ExpressibleByFloatLiteral {
    /// A float literal is a `.real`.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension DatabaseValue: ExpressibleByStringLiteral {
    /// A string literal is `.text`.
    public init(stringLiteral value: String) { self = .text(value) }
}
