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

/// A user row whose declared reference (`shipyard_references`) names a shipped row that does
/// not exist in the shipped data attached.
public struct DanglingReference: Hashable {
    /// The declaration the row breaks.
    public var reference: ShippedReference
    /// The row's key: its single-column PRIMARY KEY, else its rowid.
    public var rowKey: DatabaseValue
    /// The value of the referring column: the key of the missing shipped row.
    public var value: DatabaseValue

    /// A dangling reference of the row keyed `rowKey`.
    public init(reference: ShippedReference, rowKey: DatabaseValue, value: DatabaseValue) {
        self.reference = reference
        self.rowKey = rowKey
        self.value = value
    }
}
