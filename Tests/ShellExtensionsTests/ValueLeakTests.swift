import CSQLite
import XCTest

/// Every allocation of the value extensions goes through sqlite3_malloc, so SQLite's own
/// count of memory in use must come back to where it was once the connection is closed.
final class ValueLeakTests: XCTestCase {
    func testNoMemoryIsLeftAllocatedAfterClose() throws {
        let sql = """
            select sha3('abc'), sha3(x'00', 512), sha3_query('select 1; select 2.5, x''00'', null, ''t''');
            select sha3_query('bogus'); select sha3_query('create table z(x)'); select sha3('a', 7);
            select ieee754(1.5), ieee754(3, 4), ieee754_to_blob(2.0), ieee754_from_blob(x'3ff0000000000000');
            select count(*) from generate_series(1, 100); select * from generate_series;
            select decimal('1e50'), decimal_add('1.5', '-2'), decimal_mul('12345678901234567890', '0.5'), decimal_cmp('1', '2');
            create table d(x); insert into d values('1.5'), (null), ('-2e3');
            select decimal_sum(x) from d; select decimal_sum(x) over (order by rowid rows 1 preceding) from d;
            select x from d order by x collate decimal; select x from d order by x collate uint;
            select regexp('a(b|c)*d{2,3}[^x-z]\\w', s) from (select 'abcbdddq' s union all select 'zz');
            select regexp('(', 'a'); select regexpi('\\q', 'a'); select regexp('[a', 'a'); select regexp(printf('%.*c', 300, 'a'), 'a');
            select shell_add_schema('CREATE VIEW v AS SELECT 1', 'main', 'd'), shell_module_schema('d'), shell_putsnl(x'41');
            select * from sqlite_dbdata; select * from sqlite_dbptr('nosuch()'); select * from sqlite_dbdata('zeroblob()') where pgno = 4096;
            select shell_escape_crnl('''a' || char(10) || char(13) || 'b'''), shell_int32(x'00000001', 0), shell_idquote('a"b');
            """
        let baseline = sqlite3_memory_used()
        do {
            let connection = ExtensionConnection()
            _ = connection.output(of: sql)
            XCTAssertGreaterThan(
                sqlite3_memory_used(), baseline, "SQLite's memory statistics are off: the test would prove nothing")
        }
        XCTAssertEqual(sqlite3_memory_used(), baseline)
    }
}
