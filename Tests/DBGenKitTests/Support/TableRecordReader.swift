import Foundation

/// Reads the records of a table B-tree straight from a database file, as the file format
/// describes them (<https://www.sqlite.org/fileformat2.html>): each row's rowid and record
/// bytes (its payload, overflow pages followed). The page writer's differential tests compare
/// these with the records SQLite's own insert wrote, so that a value stored in another way
/// (an integer as a real, a different serial type) shows even where `.sha3sum` and `quote()`
/// would read both alike.
struct TableRecordReader {
    let bytes: [UInt8]
    let pageSize: Int
    let usableSize: Int

    init(file: URL) throws {
        bytes = Array(try Data(contentsOf: file))
        let raw = Int(bytes[16]) << 8 | Int(bytes[17])
        pageSize = raw == 1 ? 65536 : raw
        usableSize = pageSize - Int(bytes[20])
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Every (rowid, record) of the table whose root page is `root`, in rowid order.
    func records(root: Int) throws -> [(rowid: Int64, record: [UInt8])] {
        var result: [(Int64, [UInt8])] = []
        try walk(page: root, into: &result, depth: 0)
        return result
    }

    private func page(_ number: Int) throws -> ArraySlice<UInt8> {
        let start = (number - 1) * pageSize
        guard number >= 1, start + pageSize <= bytes.count else { throw Malformed(description: "page \(number)") }
        return bytes[start..<(start + pageSize)]
    }

    private func walk(page number: Int, into result: inout [(Int64, [UInt8])], depth: Int) throws {
        guard depth < 20 else { throw Malformed(description: "too deep at page \(number)") }
        let data = try page(number)
        let base = data.startIndex
        let header = base + (number == 1 ? 100 : 0)
        let flag = data[header]
        let cells = Int(data[header + 3]) << 8 | Int(data[header + 4])
        let pointers = header + (flag == 0x0D ? 8 : 12)
        for index in 0..<cells {
            let offset = Int(data[pointers + 2 * index]) << 8 | Int(data[pointers + 2 * index + 1])
            var at = base + offset
            if flag == 0x05 {
                let child = data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
                try walk(page: child, into: &result, depth: depth + 1)
            } else if flag == 0x0D {
                let (payload, payloadLength) = Self.varint(data, at)
                at += payloadLength
                let (rowid, rowidLength) = Self.varint(data, at)
                at += rowidLength
                result.append((Int64(bitPattern: rowid), try payloadBytes(data, at: at, size: Int(payload))))
            } else {
                throw Malformed(description: "page \(number) has flag \(flag)")
            }
        }
        if flag == 0x05 {
            let right = data[(header + 8)..<(header + 12)].reduce(0) { $0 << 8 | Int($1) }
            try walk(page: right, into: &result, depth: depth + 1)
        }
    }

    /// The local part, then the overflow chain.
    private func payloadBytes(_ data: ArraySlice<UInt8>, at start: Int, size: Int) throws -> [UInt8] {
        let maxLocal = usableSize - 35
        let minLocal = (usableSize - 12) * 32 / 255 - 23
        var local = size
        if size > maxLocal {
            let surplus = minLocal + (size - minLocal) % (usableSize - 4)
            local = surplus <= maxLocal ? surplus : minLocal
        }
        var result = Array(data[start..<(start + local)])
        if local == size { return result }
        var next = data[(start + local)..<(start + local + 4)].reduce(0) { $0 << 8 | Int($1) }
        while result.count < size {
            guard next != 0 else { throw Malformed(description: "overflow chain ends early") }
            let overflow = try page(next)
            let take = min(usableSize - 4, size - result.count)
            result += overflow[(overflow.startIndex + 4)..<(overflow.startIndex + 4 + take)]
            next = overflow[overflow.startIndex..<(overflow.startIndex + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        return result
    }

    private static func varint(_ data: ArraySlice<UInt8>, _ start: Int) -> (UInt64, Int) {
        var value: UInt64 = 0
        for index in 0..<8 {
            let byte = data[start + index]
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (value, index + 1) }
        }
        return (value << 8 | UInt64(data[start + 8]), 9)
    }
}
