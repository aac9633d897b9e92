import Foundation
import ShipyardTestSupport
import XCTest

/// Reading archives through the zipfile table, against the sqlite3 shell.
final class ZipReadTests: XCTestCase {
    private let columns = "name, mode, mtime, sz, hex(rawdata), quote(data), typeof(data), typeof(rawdata), method"

    /// A scratch directory with py.zip (built by python3: stored, deflated, a directory, an
    /// empty file, a unicode name, comments, odd DOS seconds), shell.zip (built by the shell's
    /// own zipfile() aggregate), empty.zip (zero bytes) and notzip.txt.
    private func makeArchives() throws -> URL {
        let dir = try makeScratchDirectory(self)
        try runPython(
            """
            import zipfile
            with zipfile.ZipFile('py.zip', 'w') as z:
                def add(name, data, method, mode, when, comment=b''):
                    info = zipfile.ZipInfo(name, date_time=when)
                    info.compress_type = method
                    info.external_attr = mode << 16
                    info.create_system = 3
                    info.comment = comment
                    z.writestr(info, data)
                add('stored.txt', b'stored text ' * 3, zipfile.ZIP_STORED, 0o100644, (2020, 1, 2, 3, 4, 6))
                add('deflated.txt', b'deflate me ' * 50, zipfile.ZIP_DEFLATED, 0o100600, (2021, 12, 31, 23, 59, 59), b'a comment')
                add('dir/', b'', zipfile.ZIP_STORED, 0o40755, (1999, 2, 28, 0, 0, 0))
                add('dir/empty', b'', zipfile.ZIP_STORED, 0o100644, (1980, 1, 1, 0, 0, 0))
                add('dir/ünïcødé 日本.bin', bytes(range(256)) * 4, zipfile.ZIP_DEFLATED, 0o100755, (2038, 1, 19, 3, 14, 8))
                add('nomode', b'no unix mode', zipfile.ZIP_STORED, 0, (2000, 2, 29, 12, 30, 30))
                z.comment = b'archive comment'
            open('empty.zip', 'wb').close()
            open('notzip.txt', 'wb').write(b'this is not a zip archive at all, just some text' * 3)
            """, in: dir)
        let build = """
            SELECT writefile('shell.zip', zipfile(name, mode, mtime, data, method)) FROM (
              SELECT 'a.txt' AS name, 420 AS mode, 1700000000 AS mtime, 'hello hello hello hello' AS data, NULL AS method
              UNION ALL SELECT 'b/', 16877, 1600000001, NULL, NULL
              UNION ALL SELECT 'b/c.bin', '-rwxr-x---', 0, zeroblob(1000), 8
              UNION ALL SELECT 'stored', NULL, 1234567890, 'x', 0);
            """
        _ = try Oracle.sqlite3.output(["-batch", ":memory:", build], in: dir)
        return dir
    }

    func testPythonArchiveMatchesShell() throws {
        let dir = try makeArchives()
        let outcome = try assertSameAsShell("SELECT \(columns) FROM zipfile('py.zip');", in: dir)
        XCTAssertEqual(outcome.rows.count, 6)
    }

    func testShellBuiltArchiveMatchesShell() throws {
        let dir = try makeArchives()
        let outcome = try assertSameAsShell("SELECT \(columns) FROM zipfile('shell.zip');", in: dir)
        XCTAssertEqual(outcome.rows.count, 4)
    }

    func testArchiveGivenAsBlobMatchesShell() throws {
        let dir = try makeArchives()
        try assertSameAsShell("SELECT \(columns) FROM zipfile(readfile('py.zip'));", in: dir)
        try assertSameAsShell(
            "SELECT \(columns) FROM zipfile((SELECT zipfile('n', 420, 1600000000, 'data data data data')));", in: dir)
    }

    func testZipfileCdsMatchesShell() throws {
        let dir = try makeArchives()
        try assertSameAsShell("SELECT name, zipfile_cds(z) FROM zipfile('py.zip');", in: dir)
        try assertSameAsShell("SELECT name, zipfile_cds(z) FROM zipfile('shell.zip');", in: dir)
        try assertSameAsShell("SELECT zipfile_cds(1);", in: dir)
        try assertSameAsShell("SELECT zipfile_cds(name) FROM zipfile('py.zip');", in: dir)
        try assertSameAsShell(
            "CREATE VIRTUAL TABLE t USING zipfile('py.zip'); SELECT name, zipfile_cds(z) FROM t;", in: dir)
    }

    func testCreatedTableMatchesShell() throws {
        let dir = try makeArchives()
        try assertSameAsShell(
            "CREATE VIRTUAL TABLE t USING zipfile('py.zip'); SELECT \(columns) FROM t ORDER BY name;", in: dir)
        try assertSameAsShell(
            "CREATE VIRTUAL TABLE t USING zipfile(\"shell.zip\"); SELECT name, sz FROM t WHERE name LIKE 'b%';", in: dir
        )
        try assertSameAsShell(
            "CREATE VIRTUAL TABLE t USING zipfile([py.zip]); SELECT count(*), sum(sz) FROM t;", in: dir)
        try assertSameAsShell("CREATE VIRTUAL TABLE t USING zipfile('missing.zip'); SELECT * FROM t;", in: dir)
        try assertSameAsShell("CREATE VIRTUAL TABLE t USING zipfile(); SELECT 1;", in: dir)
        try assertSameAsShell("CREATE VIRTUAL TABLE t USING zipfile(a, b);", in: dir)
    }

    func testSchemaJoinsAndErrorsMatchShell() throws {
        let dir = try makeArchives()
        try assertSameAsShell("SELECT * FROM pragma_table_xinfo('zipfile');", in: dir)
        try assertSameAsShell(
            "SELECT a.name, b.name FROM zipfile('py.zip') a JOIN zipfile('shell.zip') b ON a.sz = b.sz;", in: dir)
        for argument in ["'missing.zip'", "'empty.zip'", "'notzip.txt'", "x''", "NULL", "readfile('notzip.txt')", "''"]
        {
            try assertSameAsShell("SELECT \(columns) FROM zipfile(\(argument));", in: dir)
        }
        try assertSameAsShell("SELECT * FROM zipfile();", in: dir)
        try assertSameAsShell("SELECT * FROM zipfile;", in: dir)
    }

    /// Damaged or unusual archives read from files: a truncated central directory, an end
    /// record whose offset and size wrap in 32 bits, a broken local header, corrupt deflate
    /// data, bzip2 entries (a method the shell does not decode), an uncompressed size of 4 GiB
    /// (negative as the shell's int: read as empty) and a size without data (out of memory).
    func testDamagedArchivesMatchShell() throws {
        let dir = try makeScratchDirectory(self)
        try runPython(
            """
            import zipfile
            with zipfile.ZipFile('good.zip', 'w') as z:
                z.writestr('s.txt', b'stored ' * 3)
                z.writestr('d.txt', b'deflate ' * 50, zipfile.ZIP_DEFLATED)
            good = open('good.zip', 'rb').read()
            open('truncated.zip', 'wb').write(good[:40] + good[-200:])
            open('wrapped.zip', 'wb').write(b'PK\\x05\\x06' + b'\\x00' * 4 + b'\\x05\\x00\\x05\\x00' + b'\\xff' * 8 + b'\\x00\\x00')
            open('badlfh.zip', 'wb').write(b'XX' + good[2:])
            at = good.index(b'd.txt') + 5
            open('baddeflate.zip', 'wb').write(good[:at] + b'\\xff' * 8 + good[at + 8:])
            with zipfile.ZipFile('sizes.zip', 'w') as z:
                z.writestr('a', b'')
                z.writestr('b', b'')
            sizes = bytearray(open('sizes.zip', 'rb').read())
            first = sizes.index(b'PK\\x01\\x02')
            second = sizes.index(b'PK\\x01\\x02', first + 1)
            sizes[first + 24:first + 28] = b'\\x00\\x00\\x00\\xff'
            open('hugesize.zip', 'wb').write(bytes(sizes))
            sizes[second + 24:second + 28] = b'\\x05\\x00\\x00\\x00'
            open('nodata.zip', 'wb').write(bytes(sizes))
            with zipfile.ZipFile('bzip2.zip', 'w') as z:
                z.writestr('b.txt', b'bzip2 ' * 40, zipfile.ZIP_BZIP2)
                z.writestr('e.txt', b'', zipfile.ZIP_BZIP2)
            """, in: dir)
        let archives = [
            ("truncated.zip", true), ("wrapped.zip", false), ("badlfh.zip", true), ("bzip2.zip", false),
            ("hugesize.zip", false), ("nodata.zip", true),
        ]
        for (archive, fails) in archives {
            let outcome = try assertSameAsShell("SELECT \(columns) FROM zipfile('\(archive)');", in: dir)
            XCTAssertEqual(outcome.error != nil, fails, archive)
        }
        try assertSameAsShell("SELECT name, sz, method, hex(rawdata) FROM zipfile('baddeflate.zip');", in: dir)
        XCTAssertNotNil(
            try assertSameAsShell("SELECT name, quote(data) FROM zipfile('baddeflate.zip');", in: dir).error)
        try assertSameAsShell(
            "SELECT name, typeof(data), length(rawdata) FROM zipfile(readfile('bzip2.zip'));", in: dir)
    }

    /// DOS dates and times outside the calendar (month 0, day 0, every bit set) convert as in the shell.
    func testOddDosTimestampsMatchShell() throws {
        let dir = try makeScratchDirectory(self)
        try runPython(
            """
            import zipfile
            with zipfile.ZipFile('odd.zip', 'w') as z:
                for i, when in enumerate([(1980, 0, 0, 0, 0, 0), (2107, 15, 31, 31, 63, 62), (2000, 2, 30, 24, 60, 60),
                                          (1980, 1, 1, 0, 0, 1), (2099, 12, 31, 23, 59, 58), (2044, 13, 1, 0, 0, 0)]):
                    z.writestr(zipfile.ZipInfo('f%d' % i, date_time=when), b'x')
            """, in: dir)
        try assertSameAsShell("SELECT name, mtime, zipfile_cds(z) FROM zipfile('odd.zip');", in: dir)
        try assertSameAsShell("SELECT name, mtime FROM zipfile(readfile('odd.zip'));", in: dir)
    }

    func testArchiveFileIsRecordedAsInput() throws {
        let dir = try makeArchives()
        let recorder = InputRecorder()
        let outcome = runOurs(
            "SELECT count(*) FROM zipfile('py.zip'); SELECT count(*) FROM zipfile(x'00');",
            baseDirectory: dir.path, recorder: recorder)
        XCTAssertEqual(outcome.rows, ["6"])
        XCTAssertEqual(recorder.paths, [dir.path + "/py.zip"])
    }
}
