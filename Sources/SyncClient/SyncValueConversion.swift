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
import LayeredDatabase
import SyncProtocol

/// SQLite's values and the wire's: the same five storage classes, a blob as `Data` on one side
/// and bytes on the other.
extension SyncValue {
    /// The wire value of a database value.
    init(_ value: DatabaseValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let data): self = .blob([UInt8](data))
        }
    }

    /// The database value of a wire value.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .text(let text): return .text(text)
        case .blob(let bytes): return .blob(Data(bytes))
        }
    }
}

extension DatabaseValue {
    /// The integer of an `.integer`, else nil.
    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
