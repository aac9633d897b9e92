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

/// Typed access to a ``Row``'s values: one column as a Swift type, or the whole row decoded
/// into a `Decodable` type whose property names are the column names.
///
/// ```swift
/// struct Food: Decodable { let pk: Int64; let name: String; let desc: String? }
/// for row in try db.query("SELECT pk, name, desc FROM all_food") {
///     let name = try row["name", as: String.self]        // "Apple", not text("Apple")
///     let desc = try row["desc", as: String?.self]       // nil for NULL
///     let food = try row.decode(Food.self)
/// }
/// let foods = try db.query("SELECT pk, name, desc FROM all_food").map { try $0.decode(Food.self) }
/// ```
///
/// Conversions are SQLite's storage classes, without guessing: an INTEGER gives any integer
/// type that holds it (`Int`, `Int64`, `Int32`, …) and `Bool` (0 is false, other values
/// true); a REAL gives `Double` or `Float`, and so does an INTEGER; TEXT gives `String`; a BLOB
/// gives `Data`. NULL gives nil for an optional type. Anything else — a missing column, NULL
/// for a non-optional type, TEXT asked as a number, an integer that does not fit — throws a
/// `DecodingError` naming the column.
extension Row {
    /// The value of the column named `name` (case-insensitive, like SQLite) as `type`.
    ///
    /// - Throws: `DecodingError` when there is no such column or its value is not a `type`.
    public subscript<T: Decodable>(_ name: String, as type: T.Type) -> T {
        get throws {
            guard let value = self[name] else {
                throw DecodingError.keyNotFound(
                    ColumnKey(name),
                    .init(codingPath: [], debugDescription: "no column named \(name) in \(columnNames)"))
            }
            return try ValueDecoder(value: value, codingPath: [ColumnKey(name)]).decodeAny(T.self)
        }
    }

    /// The value of the column at `index` as `type`.
    ///
    /// - Throws: `DecodingError` when the value is not a `type`.
    public subscript<T: Decodable>(_ index: Int, as type: T.Type) -> T {
        get throws {
            let key = ColumnKey(index < columnNames.count ? columnNames[index] : String(index))
            return try ValueDecoder(value: self[index], codingPath: [key]).decodeAny(T.self)
        }
    }

    /// The row decoded into `type`: each property from the column of its coding key's name.
    ///
    /// - Throws: `DecodingError` naming the column that is missing or of the wrong type.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: RowDecoder(row: self))
    }
}

/// A column name as a coding key.
private struct ColumnKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// Decodes a row as a keyed container: one key per column.
private struct RowDecoder: Decoder {
    let row: Row
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: [], debugDescription: "a row decodes as a keyed container (columns by name)"))
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        guard row.values.count == 1 else {
            throw DecodingError.typeMismatch(
                Any.self,
                .init(
                    codingPath: [],
                    debugDescription: "a single value needs a row of one column, not \(row.values.count)"))
        }
        return ValueDecoder(value: row.values[0], codingPath: [ColumnKey(row.columnNames[0])])
    }

    private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: Row
        var codingPath: [CodingKey] { [] }
        var allKeys: [Key] { row.columnNames.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { row[key.stringValue] != nil }

        private func value(_ key: Key) throws -> ValueDecoder {
            guard let value = row[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(codingPath: [], debugDescription: "no column named \(key.stringValue) in \(row.columnNames)"))
            }
            return ValueDecoder(value: value, codingPath: [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key).decodeNil() }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(key).decodeAny(T.self) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: [key], debugDescription: "a column holds one value, not a nested container"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self,
                .init(codingPath: [key], debugDescription: "a column holds one value, not a nested container"))
        }

        func superDecoder() throws -> Decoder { RowDecoder(row: row) }
        func superDecoder(forKey key: Key) throws -> Decoder { try value(key) }
    }
}

/// Decodes one column's value.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: DatabaseValue
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch(type, "a keyed container")
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { throw mismatch([Any].self, "an unkeyed container") }
    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    /// `T` from this value: `Data` from a BLOB, the standard types below, anything else
    /// through its own `init(from:)` (optionals, `RawRepresentable` enums, wrappers).
    func decodeAny<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Data.self {
            guard case .blob(let bytes) = value, let data = bytes as? T else { throw mismatch(type, "a BLOB") }
            return data
        }
        return try T(from: self)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try integer(Int64.self) != 0 }
    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = value else { throw mismatch(type, "TEXT") }
        return text
    }
    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: throw mismatch(type, "a REAL or an INTEGER")
        }
    }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeAny(type) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .integer(let integer) = value else { throw mismatch(type, "an INTEGER") }
        guard let exact = T(exactly: integer) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "\(integer) does not fit in \(type)"))
        }
        return exact
    }

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        let column = codingPath.last?.stringValue ?? "?"
        let found: String
        switch value {
        case .null: found = "NULL"
        case .integer: found = "an INTEGER"
        case .real: found = "a REAL"
        case .text: found = "TEXT"
        case .blob: found = "a BLOB"
        }
        if value == .null {
            return DecodingError.valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "column \(column) is NULL; decode an optional"))
        }
        return DecodingError.typeMismatch(
            type,
            .init(
                codingPath: codingPath, debugDescription: "column \(column) holds \(found), not \(expected) for \(type)"
            ))
    }
}
