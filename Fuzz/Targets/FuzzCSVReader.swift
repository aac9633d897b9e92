// libFuzzer target for the CSV reader and importer (`.import`): compiled into the DBGenKit
// module by scripts/fuzz.sh, so it drives exactly the code dbgen runs.
//
// Input layout: byte 0 picks the format (csv/ascii quoting, separators), byte 1 the table
// shape (existing 3-column table, or created from the header row) and `--skip`;
// the rest is the file's content. Invariants checked beyond "no crash, no hang, no
// sanitizer report": an import that succeeds inserted exactly the rows the table now holds;
// one that fails leaves no row behind (the importer rolls back).
import Foundation
import SQLiteCore

private let separators: [(UInt8, UInt8)] = [
    (UInt8(ascii: ","), UInt8(ascii: "\n")), (UInt8(ascii: "|"), UInt8(ascii: "\n")),
    (UInt8(ascii: "\t"), UInt8(ascii: "\n")), (0x1F, 0x1E), (UInt8(ascii: ";"), UInt8(ascii: "\r")),
    (UInt8(ascii: "\""), UInt8(ascii: "\n")), (UInt8(ascii: ","), UInt8(ascii: ",")), (0, UInt8(ascii: "\n")),
]

private let csvPath: String = {
    let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return "\(dir)/shipyard-fuzz-csv-\(getpid()).csv"
}()

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FuzzCSVReader invariant broken: \(message)\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let formatByte = data[0], shapeByte = data[1]
    let body = Data(bytes: data + 2, count: size - 2)
    guard FileManager.default.createFile(atPath: csvPath, contents: body) else { fail("cannot write \(csvPath)") }

    let (column, row) = separators[Int(formatByte) % separators.count]
    let format = ImportFormat(
        quoting: formatByte & 0x80 == 0 ? .csv : .ascii, columnSeparator: column, rowSeparator: row)
    let createFromHeader = shapeByte & 1 == 1
    let skip = Int((shapeByte >> 1) & 3)

    let db: Connection
    do {
        db = try Connection(uri: ":memory:")
        if !createFromHeader { try db.execute("CREATE TABLE t(a, b INTEGER, c TEXT)") }
    } catch {
        fail("cannot set up the database: \(error)")
    }
    let request = ImportRequest(
        file: URL(fileURLWithPath: csvPath), displayPath: "fuzz.csv", table: "t", skip: skip, format: format)
    var warnings = 0
    do {
        let result = try CSVImporter.run(
            request, into: db,
            diagnostics: { diagnostic in
                warnings += 1
                if diagnostic.description.isEmpty { fail("empty diagnostic") }
            })
        let count = rowCount(db)
        if result.rowsInserted != count { fail("rowsInserted \(result.rowsInserted) but table holds \(count)") }
    } catch let error as DBGenError {
        if error.message.isEmpty { fail("empty error message") }
        let count = rowCount(db)
        if count > 0 { fail("failed import left \(count) rows behind: \(error)") }
    } catch {
        fail("unexpected error type: \(error)")
    }
    return 0
}

/// Rows in `t`; 0 when the import failed before creating it.
private func rowCount(_ db: Connection) -> Int {
    do {
        guard case .integer(let count)? = try db.scalar("SELECT count(*) FROM t") else { return 0 }
        return Int(count)
    } catch {
        return 0
    }
}
