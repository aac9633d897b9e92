@testable import DBGenKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Every dot-command of the sqlite3 3.40.1 shell, one row each, built by dbgen (through
/// ``DatabaseBuilder``, the code the CLI runs) and by the sqlite3 shell from the same script in
/// the same directory: accepted and honoured commands give the same content (schema, rows with
/// their types, user_version); refused ones stop dbgen at their line with nothing written;
/// argument errors stop dbgen at their line where the shell reports them.
final class DotCommandDifferentialTests: XCTestCase {
    enum Expectation {
        /// Both build without error, with the same content.
        case same
        /// dbgen refuses the command at its line and writes nothing.
        case refused
        /// The shell reports an error for these arguments (exit status or stderr); dbgen
        /// stops at the line.
        case rejected
        /// The shell carries on without an error message on stderr (printing help, or assuming
        /// a default); dbgen stops at the line, as it does wherever the input is a mistake.
        case stricter
    }

    struct Row {
        let middle: String
        let expectation: Expectation
        /// The line of `middle` (1-based) where dbgen must stop.
        var line = 1
    }

    /// Two lines before every row's commands, the same SQL after them.
    static let prelude = "CREATE TABLE t(a, b, c);\nINSERT INTO t VALUES (1, 'one', 1.5);\n"
    static let postlude = "INSERT INTO t VALUES (2, 'two', 2.5);\nPRAGMA user_version = 3;\n"
    static let files = [
        "data.csv": "7|x|y\n8|z|w\n",
        "sub/data.csv": "9,p,q\n",
        "sub/more.sql": "INSERT INTO t VALUES ('more', 0, 0);\n",
        "sub/quits.sql": "INSERT INTO t VALUES ('before', 0, 0);\n.quit\nINSERT INTO t VALUES ('after', 0, 0);\n",
        "sub/exits.sql": "INSERT INTO t VALUES ('before', 0, 0);\n.exit 0\nINSERT INTO t VALUES ('after', 0, 0);\n",
    ]

    static let outputOnlyRows: [Row] = [
        ".auth on", ".auth off", ".binary on", ".breakpoint", ".changes on", ".connection", ".databases",
        ".dbconfig", ".dbconfig enable_fkey", ".dump", ".dump --data-only t", ".dump --newlines --nosys", ".echo on",
        ".echo off", ".eqp on", ".eqp full", ".explain", ".explain auto", ".fullschema", ".fullschema --indent",
        ".headers on", ".header off", ".help", ".help mode", ".indexes", ".indices t", ".limit", ".limit length",
        ".lint fkey-indexes", ".log off", ".log stdout", ".nullvalue NULL", ".output", ".output stdout",
        ".output --bom stderr",
        ".once", ".once stderr", ".trace stdout stderr", ".trace off --row",
        ".explain on off", ".lint fkey-indexes -VERB -groupby", ".progress 10 --quiet --reset --once -q",
        ".import --skip x data.csv t", ".import --skip -3 data.csv t", ".print hello world",
        ".progress 100", ".prompt 'a> ' '.. '", ".scanstats off", ".schema", ".schema t", ".schema --indent",
        ".selecttrace 0", ".sha3sum", ".sha3sum --schema", ".show", ".stats on", ".stats off", ".stats", ".tables",
        ".tables t%", ".timeout 100", ".timer off", ".trace off", ".treetrace 0", ".version", ".vfsinfo", ".vfslist",
        ".vfsname", ".wheretrace 0", ".width 5 10", ".parameter list", ".bail on", ".bail off", ".quit", ".exit",
        ".exit 0", ".mode box", ".mode line", ".mode json", ".mode insert t2", ".mode", ".separator ; \\n",
    ].map { Row(middle: $0, expectation: .same) }

    static let stateRows: [Row] = [
        Row(
            middle: """
                .parameter init
                .parameter set :v 42
                .param set @s 'text'
                .parameter set $e 1+2
                .parameter set :q "'quoted'"
                .parameter set :b x'00ff'
                .parameter set ?2 2.5
                .parameter set :w word
                INSERT INTO t VALUES (:v, @s, $e);
                INSERT INTO t VALUES (:q, :b, :w);
                INSERT INTO t VALUES (?1, ?2, :missing);
                .parameter unset :v
                INSERT INTO t VALUES (:v, typeof(:b), 0);
                .parameter clear
                INSERT INTO t VALUES (:s, 1, 1);
                """, expectation: .same),
        Row(
            middle: """
                CREATE TABLE log(x);
                CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); END;
                .dbconfig enable_trigger off
                INSERT INTO t VALUES (10, 0, 0);
                .dbconfig enable_trigger on
                INSERT INTO t VALUES (11, 0, 0);
                """, expectation: .same),
        Row(
            middle: ".dbconfig enable_fkey on\nINSERT INTO t SELECT foreign_keys, 'fk', 0 FROM pragma_foreign_keys;",
            expectation: .same),
        Row(middle: ".dbconfig defensive on\nINSERT INTO t VALUES ('defensive', 0, 0);", expectation: .same),
        Row(middle: ".limit length 20\nINSERT INTO t VALUES ('short', 0, 0);", expectation: .same),
        Row(middle: ".limit variable_number 4\n.mode csv\n.separator |\n.import data.csv t", expectation: .same),
        Row(middle: ".mode csv\n.separator |\n.mode\n.import data.csv t", expectation: .same),
        Row(middle: ".mode list\n.import data.csv t", expectation: .same),
        Row(middle: ".separator |\n.import data.csv t", expectation: .same),
        Row(middle: ".cd sub\n.mode csv\n.import data.csv t\n.read more.sql", expectation: .same),
        Row(middle: ".read sub/more.sql", expectation: .same),
        // A CRLF script: each line's `\r` goes before the dot-command is read, as in the shell.
        Row(
            middle:
                ".mode csv\r\n.separator |\r\n.param set :c 'crlf'\r\nINSERT INTO t VALUES (:c, 0, 0);\r\n.import data.csv t\r",
            expectation: .same),
        // `.quit` and `.exit` end only the script they are in; the one that read it goes on.
        Row(
            middle: ".read sub/quits.sql\nINSERT INTO t VALUES ('read again', 0, 0);\n.read sub/exits.sql",
            expectation: .same),
        Row(
            middle: "INSERT INTO t VALUES ('before', 0, 0);\n.quit\nINSERT INTO t VALUES ('after', 0, 0);",
            expectation: .same),
        Row(middle: "ATTACH 'other.db' AS o;\nINSERT INTO t SELECT * FROM o.o;\nDETACH o;", expectation: .same),
        // `.restore` replaces the database with the file's (an input); `t` is then new again.
        Row(middle: ".restore other.db\nCREATE TABLE t(a, b, c);\nINSERT INTO t SELECT * FROM o;", expectation: .same),
        Row(middle: ".restore main other.db\nCREATE TABLE t(a, b, c);", expectation: .same),
        Row(middle: ".restore temp other.db\nINSERT INTO t SELECT * FROM temp.o;", expectation: .same),
        Row(
            middle: "ATTACH ':memory:' AS m;\n.restore m other.db\nINSERT INTO t SELECT * FROM m.o;", expectation: .same
        ),
        Row(
            middle:
                "ATTACH ':memory:' AS m;\nCREATE TABLE m.s(x);\nINSERT INTO m.s VALUES (5);\nINSERT INTO t SELECT x, x, x FROM m.s;",
            expectation: .same),
    ]

    static let refusedRows: [Row] =
        [
            ".archive --list", ".ar -c x.sqlar", ".backup copy.db", ".save copy.db", ".clone copy.db", ".excel",
            ".expert",
            ".filectrl size_limit", ".imposter i t2", ".load ./x", ".log out.txt", ".nonce x", ".once out.txt",
            ".once -x",
            ".log -", ".trace --plain off",
            ".open copy.db", ".output out.txt", ".output |cat", ".read |ls", ".import \"|cat data.csv\" t",
            ".selftest", ".session", ".shell touch x", ".system touch x", ".testcase x",
            ".testctrl always", ".check x", ".trace out.txt", ".connection 1", ".progress 1 --limit 2",
            ".dbconfig load_extension on", "VACUUM INTO 'copy.db';", "VACUUM main INTO 'copy.db';",
            "ATTACH 'new.db' AS n;",
            "SELECT load_extension('x');",
        ].map { Row(middle: $0, expectation: .refused) } + [
            Row(middle: "ATTACH 'other.db' AS o;\nINSERT INTO o.o VALUES (1, 2, 3);", expectation: .refused, line: 2),
            Row(middle: "ATTACH 'other.db' AS o;\nCREATE TABLE o.z(x);", expectation: .refused, line: 2),
            Row(middle: "ATTACH 'other.db' AS o;\nPRAGMA o.user_version = 9;", expectation: .refused, line: 2),
            // SQLite asks no authorizer about VACUUM, which rewrites the attached file in place.
            Row(middle: "ATTACH 'other.db' AS o;\nVACUUM o;", expectation: .refused, line: 2),
            Row(middle: "ATTACH 'other.db' AS o;\n.restore o other.db", expectation: .refused, line: 2),
            // Another VFS would resolve the relative name against the process's directory.
            Row(middle: "ATTACH 'file:other.db?vfs=unix-none' AS o;", expectation: .refused),
            // The shell evaluates the value, so it would write the file.
            Row(middle: ".parameter set :w \"writefile('w.txt', 'x')\"", expectation: .refused),
            Row(middle: ".param set :e \"edit('x', 'true')\"", expectation: .refused),
            Row(middle: "ATTACH 'other.db' AS \"O x\";\n/* c */ vacuum \"o X\";", expectation: .refused, line: 2),
            Row(middle: "ATTACH 'other.db' AS o;\n.import --schema o data.csv o", expectation: .refused, line: 2),
        ]

    static let rejectedRows: [Row] = [
        ".headers", ".bail maybe", ".echo", ".nullvalue", ".show x", ".schema a b", ".dump --bogus", ".sha3sum --bogus",
        ".lint x", ".dbconfig bogus on", ".limit bogus", ".limit l", ".limit length 1 2", ".mode bogus", ".separator",
        ".read", ".read nosuch.sql", ".cd", ".cd nowhere", ".frobnicate", ".import nosuch.csv t", ".import data.csv",
        ".import --schema nosuch data.csv t", ".exit 3", ".indexes a b", ".fullschema --bogus", ".log",
        ".auth maybe", ".stats maybe", ".eqp maybe", ".timer maybe", ".dbinfo", ".recover",
        ".eqp trace", ".lint fkey-indexes -bogus", ".progress 10 --bogus", ".progress --limit",
        ".output off", ".output -", ".output stdout stderr", ".once off", ".trace -", ".schema -",
        ".restore", ".restore a b c", ".restore nosuch.db", ".restore nosuch other.db",
    ].map { Row(middle: $0, expectation: .rejected) }

    static let stricterRows: [Row] = [
        ".parameter", ".parameter bogus", ".parameter set :x",
    ].map { Row(middle: $0, expectation: .stricter) }

    func testOutputOnlyCommandsChangeNothing() throws { try check(Self.outputOnlyRows) }
    func testStateLaterStatementsSeeIsHonoured() throws { try check(Self.stateRows) }
    func testWritersAndProgramRunnersAreRefusedWithNothingWritten() throws { try check(Self.refusedRows) }
    func testArgumentErrorsStopAtTheirLine() throws { try check(Self.rejectedRows + Self.stricterRows) }

    /// Every command of the catalog has at least one row here.
    func testEveryCommandOfTheCatalogHasARow() {
        let rows = Self.outputOnlyRows + Self.stateRows + Self.refusedRows + Self.rejectedRows + Self.stricterRows
        let named = Set(
            rows.flatMap { row in
                row.middle.split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix(".") else { return nil }
                    let word = String(line.dropFirst().prefix { !$0.isWhitespace })
                    return DotCommandCatalog.entry(named: word)?.name
                }
            })
        for entry in DotCommandCatalog.entries {
            XCTAssertTrue(named.contains(entry.name), "no differential row for .\(entry.name)")
        }
    }

    /// Every prefix of every command name: the shell knows it exactly when the catalog does,
    /// and the tricky ones name the command the shell's `do_meta_command` tries first.
    func testAbbreviationsNameWhatTheyNameInTheShell() throws {
        let names = DotCommandCatalog.entries.map(\.name) + Array(DotCommandCatalog.aliases.keys)
        let prefixes = Set(names.flatMap { name in (1...name.count).map { String(name.prefix($0)) } })
        let directory = try TemporaryDirectory("abbreviations", removedAfter: self)
        // One shell reads them all (it reports each unknown one and goes on); those that end
        // its input (`.quit`, `.exit`, and `.check` without its pattern) each get their own.
        let ending = prefixes.filter { ["quit", "exit", "check"].contains(DotCommandCatalog.entry(named: $0)?.name) }
        var unknown: Set<String> = []
        for input in [prefixes.subtracting(ending).sorted()] + ending.sorted().map({ [$0] }) {
            let script = input.map { ".\($0)\n" }.joined()
            let shell = try Oracle.sqlite3.run([":memory:"], in: directory.url, stdin: script)
            for line in shell.stderrText.split(separator: "\n")
            where line.contains("unknown command or invalid arguments") {
                let quoted = line.split(separator: "\"")
                if quoted.count > 1 { unknown.insert(String(quoted[1])) }
            }
        }
        for prefix in prefixes.sorted() {
            XCTAssertEqual(DotCommandCatalog.entry(named: prefix) != nil, !unknown.contains(prefix), ".\(prefix)")
        }
        XCTAssertFalse(unknown.isEmpty, "the shell's message for an unknown command was not recognised")
        let expected = [
            "a": "auth", "ar": "archive", "c": "clone", "co": "connection", "d": "dump", "da": "databases",
            "e": "echo", "ex": "exit", "exp": "explain", "f": "filectrl", "h": "headers", "i": "import",
            "imp": "import", "impos": "imposter", "in": "indices", "l": "load", "log": "log", "o": "output",
            "on": "once", "op": "open", "p": "prompt", "par": "parameter", "pro": "progress", "r": "recover",
            "rea": "read", "res": "restore", "s": "scanstats", "sc": "scanstats", "sch": "schema", "se": "separator",
            "ses": "session", "sh": "shell", "t": "trace", "ta": "tables", "v": "version", "vf": "vfsinfo",
            "w": "wheretrace", "wi": "width",
        ]
        for (written, name) in expected {
            XCTAssertEqual(DotCommandCatalog.entry(named: written)?.name, name, ".\(written)")
        }
    }

    /// The file `.restore` reads is an input of the build, and is left as it was, with nothing
    /// beside it (a WAL database opened read-only would leave its -wal and -shm files).
    func testRestoredFileIsAnInputAndLeftAsItWas() throws {
        let differential = try ShellScriptDifferential(removedAfter: self)
        let source = try Connection(path: differential.directory.url("wal.db").path, create: true)
        try source.execute("PRAGMA journal_mode=WAL; CREATE TABLE w(x); INSERT INTO w VALUES (1);")
        source.close()
        let script = ".restore wal.db\nINSERT INTO w VALUES (2);\n"
        let before = try differential.files(writing: script)
        let dbgen = try differential.runDBGen(script)
        XCTAssertNil(dbgen.error)
        XCTAssertEqual(dbgen.content?.filter { $0.hasPrefix("w:") }.count, 2)
        // The output (and what reading it back leaves beside it) aside, every file is as it was.
        XCTAssertEqual(
            try differential.files().filter { !$0.key.hasPrefix("dbgen.sqlite") && !$0.key.hasPrefix(".") },
            before)
        var options = BuildOptions(
            schema: differential.directory.url("script.txt").path,
            output: differential.directory.url("again.sqlite").path)
        options.force = true
        options.cacheDirectory = nil // forced, so no fingerprint is needed: none lands in ~/.cache/dbgen
        XCTAssertTrue(try DatabaseBuilder.build(options).inputs.contains { $0.hasSuffix("wal.db") })
    }

    private func check(_ rows: [Row], file: StaticString = #filePath, line: UInt = #line) throws {
        for row in rows {
            let differential = try ShellScriptDifferential(files: Self.files, removedAfter: self)
            let other = try Connection(path: differential.directory.url("other.db").path, create: true)
            try other.execute("CREATE TABLE o(a, b, c); INSERT INTO o VALUES (42, 'other', 4.5);")
            other.close()
            try check(row, differential, file: file, line: line)
        }
    }

    private func check(_ row: Row, _ differential: ShellScriptDifferential, file: StaticString, line: UInt) throws {
        let script = Self.prelude + row.middle + "\n" + Self.postlude
        let what = "`\(row.middle)`"
        let filesBefore = try differential.files(writing: script)
        let dbgen = try differential.runDBGen(script)
        let expectedLine = 2 + row.line
        switch row.expectation {
        case .same:
            let shell = try differential.runShell(script)
            XCTAssertEqual(shell.status, 0, "sqlite3 failed on \(what): \(shell.stderr)", file: file, line: line)
            XCTAssertNil(dbgen.error, "dbgen stopped on \(what)", file: file, line: line)
            XCTAssertEqual(dbgen.content, shell.content, "content differs after \(what)", file: file, line: line)
        case .refused:
            XCTAssertEqual(
                dbgen.error?.code, .refused, "\(what): \(String(describing: dbgen.error))", file: file, line: line)
            XCTAssertEqual(dbgen.error?.location?.line, expectedLine, "\(what)", file: file, line: line)
            XCTAssertEqual(try differential.files(), filesBefore, "\(what) wrote something", file: file, line: line)
        case .rejected, .stricter:
            XCTAssertEqual(
                dbgen.error?.location?.line, expectedLine, "\(what): \(String(describing: dbgen.error))",
                file: file, line: line)
            XCTAssertNotEqual(dbgen.error?.code, .refused, "\(what)", file: file, line: line)
            let shell = try differential.runShell(script)
            let shellComplained = shell.status != 0 || !shell.stderr.isEmpty
            XCTAssertEqual(
                shellComplained, row.expectation == .rejected,
                "sqlite3 on \(what): status \(shell.status), \(shell.stderr)", file: file, line: line)
        }
    }
}
