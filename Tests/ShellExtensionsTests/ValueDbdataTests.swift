import CSQLite
import ShipyardTestSupport
import XCTest

/// sqlite_dbdata and sqlite_dbptr against the sqlite3 shell. The shell's library has no
/// sqlite_dbpage, so pages are served the way the shell's module allows without it: the
/// schema "readfile()" makes it call readfile(0) for the page count and readfile(N) for page
/// N, and the pages of each test database are written to files named 0, 1, 2, ...
final class ValueDbdataTests: XCTestCase {
    static let queries = [
        "select pgno, cell, field, quote(value) from sqlite_dbdata('readfile()');",
        "select pgno, child from sqlite_dbptr('readfile()');",
        "select rowid, pgno, cell, field, typeof(value) from sqlite_dbdata('readfile()') limit 7;",
        "select quote(schema) from sqlite_dbdata('readfile()') limit 1;",
        "select pgno, cell, field, quote(value) from sqlite_dbdata('readfile()') where pgno = 2;",
        "select pgno, cell, field, quote(value) from sqlite_dbdata('readfile()') where pgno = 3 order by pgno, cell;",
        "select count(*) from sqlite_dbdata('readfile()') where pgno = 0;",
        "select count(*) from sqlite_dbdata('readfile()') where pgno = -1;",
        "select count(*) from sqlite_dbdata('readfile()') where pgno = 100000;",
        "select * from sqlite_dbptr('readfile()') where pgno = 2;",
        "select count(*), sum(length(value)) from sqlite_dbdata where schema = 'readfile()';",
        "select count(*) from sqlite_dbdata;",
        "select * from sqlite_dbdata('nosuch()');",
        "select * from sqlite_dbdata('2');",
        "select * from sqlite_dbptr('temp');",
    ]

    /// Writes the pages of the database that `sql` builds as files 1...N, and N in file 0.
    static func pageDirectory(_ sql: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dbdata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("db").path
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(file, &db), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(db, sql, nil, nil, nil), SQLITE_OK, String(cString: sqlite3_errmsg(db)))
        sqlite3_close(db)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let field = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = field == 1 ? 65536 : field
        let pages = bytes.count / pageSize
        try Data("\(pages)".utf8).write(to: dir.appendingPathComponent("0"))
        for i in 0..<pages {
            try bytes.subdata(in: i * pageSize..<(i + 1) * pageSize).write(to: dir.appendingPathComponent("\(i + 1)"))
        }
        return dir
    }

    /// Runs every query over the database built by `sql`, after `corrupt` edits its page files.
    func assertDatabaseMatchesShell(
        _ sql: String, queries: [String] = queries, corrupt: (URL) throws -> Void = { _ in },
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let dir = try Self.pageDirectory(sql)
        defer { try? FileManager.default.removeItem(at: dir) }
        try corrupt(dir)
        try assertMatchesShell(
            queries, directory: dir, prepare: { $0.registerReadfile(directory: dir.path) }, file: file, line: line)
    }

    /// A table and an index of every value type.
    func testSmallDatabaseMatchesShell() throws {
        try assertDatabaseMatchesShell(
            """
            create table t(a, b); create index ti on t(b);
            insert into t values(1, 'x'), (2.5, x'0102'), (null, 300), (-1, 'hello'), (0, 1), (127, -128), (32768, 8388608),
              (2147483648, 140737488355328), (-9223372036854775808, 9223372036854775807), (1e300, -0.0), ('', x'');
            """)
    }

    /// Small pages: interior table and index pages, overflow chains, a WITHOUT ROWID table.
    func testMultiLevelDatabaseMatchesShell() throws {
        try assertDatabaseMatchesShell(
            """
            pragma page_size = 512; create table big(id integer primary key, v, w); create index bw on big(w);
            with recursive s(value) as (select 1 union all select value + 1 from s where value < 300)
            insert into big(v, w) select printf('%.*c', value % 700, 'a'), value * 7919 % 1000 from s;
            insert into big(v, w) values(zeroblob(3000) || x'01', 'long'), (zeroblob(5000), printf('%.*c', 600, 'k'));
            create table kv(k primary key, v) without rowid;
            with recursive s(value) as (select 1 union all select value + 1 from s where value < 200)
            insert into kv select 'key' || value, value from s;
            delete from big where id % 5 = 0;
            """)
    }

    /// Text in UTF-16 databases comes back as text.
    func testUtf16DatabasesMatchShell() throws {
        for encoding in ["UTF-16le", "UTF-16be"] {
            try assertDatabaseMatchesShell(
                "pragma encoding = '\(encoding)'; create table t(a); insert into t values('héllo'), ('ü'), (x'00ff'), ('');"
            )
        }
    }

    /// Seeded corruption of b-tree page headers and cell pointer arrays (the first 24 bytes of
    /// pages 2-6), read through sqlite_dbptr. (sqlite_dbdata over such pages is not compared:
    /// there the 3.40.1 module reads past the ends of its page and record buffers.)
    func testCorruptPageHeadersMatchShellForPointers() throws {
        var rng = SeededGenerator(seed: 2019_04_17)
        let sql = """
            pragma page_size = 1024; create table t(a, b); create index ti on t(a, b);
            with recursive s(value) as (select 1 union all select value + 1 from s where value < 120)
            insert into t select printf('%.*c', value % 50, 'z'), value from s;
            insert into t values(printf('%.*c', 3000, 'o'), 'overflow');
            """
        for _ in 0..<40 {
            let edits = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                (
                    Int.random(in: 2...6, using: &rng), Int.random(in: 0..<24, using: &rng),
                    UInt8.random(in: 0...255, using: &rng)
                )
            }
            try assertDatabaseMatchesShell(
                sql, queries: Self.queries.filter { $0.contains("dbptr") },
                corrupt: { dir in
                    for (page, offset, byte) in edits {
                        let url = dir.appendingPathComponent("\(page)")
                        guard var data = try? Data(contentsOf: url), offset < data.count else { continue }
                        data[offset] = byte
                        try data.write(to: url)
                    }
                })
        }
    }
}
