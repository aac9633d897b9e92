import Foundation
import ShipyardTestSupport
import XCTest

/// How `dbgen build` treats its output: deterministic bytes, up-to-date no-ops, --force,
/// depfiles (read back by make), --json, odd paths, kills and concurrent builds.
final class DBGenBuildBehaviourTests: XCTestCase {
    static let schema = """
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL);
        INSERT INTO item (name, price) VALUES ('apple', 1.25), ('pear', 2.5);
        .read 'more things/extra.txt'
        PRAGMA user_version = 5;

        """
    static let extra = "CREATE TABLE tag (name TEXT);\nINSERT INTO tag VALUES ('fresh'), ('ripe');\n"

    private func makeProject() throws -> URL {
        let dir = try TemporaryDirectory("dbgen-build", removedAfter: self).url
        try DBGenTestSupport.write(Self.schema, to: "in put/schema.txt", in: dir)
        try DBGenTestSupport.write(Self.extra, to: "in put/more things/extra.txt", in: dir)
        try TemporaryDirectory.backdateContents(of: dir)
        return dir
    }

    func testSameInputsGiveIdenticalBytesWhateverDirectoryTimeZoneOrLocale() throws {
        let dir = try makeProject()
        let first = try DBGenTestSupport.dbgen(
            ["in put/schema.txt", "-o", "a.sqlite"], in: dir,
            environment: ["TZ": "UTC", "LANG": "C", "LC_ALL": "C"])
        XCTAssertEqual(first.status, 0, first.stderrText)
        let elsewhere = dir.appendingPathComponent("in put/more things")
        let second = try DBGenTestSupport.dbgen(
            [dir.appendingPathComponent("in put/schema.txt").path, "-o", "../../b.sqlite"],
            in: elsewhere,
            environment: ["TZ": "Asia/Kathmandu", "LANG": "de_DE.UTF-8", "LC_ALL": "tr_TR.UTF-8"])
        XCTAssertEqual(second.status, 0, second.stderrText)
        let a = DBGenTestSupport.bytes(dir.appendingPathComponent("a.sqlite"))
        let b = DBGenTestSupport.bytes(dir.appendingPathComponent("b.sqlite"))
        XCTAssertGreaterThan(a.count, 0)
        XCTAssertEqual(a, b)
    }

    func testUnchangedInputsAreANoOpAndChangesOrForceRebuild() throws {
        let dir = try makeProject()
        let output = dir.appendingPathComponent("out.sqlite")
        XCTAssertEqual(try DBGenTestSupport.dbgen(["in put/schema.txt", "-o", "out.sqlite"], in: dir).status, 0)
        let inode = try DBGenTestSupport.inode(output), mtime = try DBGenTestSupport.modificationDate(output)

        let again = try DBGenTestSupport.dbgen(["in put/schema.txt", "-o", "out.sqlite", "--json"], in: dir)
        XCTAssertEqual(again.status, 0, again.stderrText)
        let json = try JSONSerialization.jsonObject(with: Data(again.stdoutText.utf8)) as? [String: Any]
        XCTAssertEqual(json?["upToDate"] as? Bool, true)
        XCTAssertEqual(try DBGenTestSupport.inode(output), inode)
        XCTAssertEqual(try DBGenTestSupport.modificationDate(output), mtime)

        let forced = try DBGenTestSupport.dbgen(
            ["in put/schema.txt", "-o", "out.sqlite", "--force", "--json"], in: dir)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(forced.stdoutText.utf8)) as? [String: Any])?["upToDate"]
                as? Bool, false)
        XCTAssertNotEqual(try DBGenTestSupport.inode(output), inode)

        // Changing an included script (even keeping its size) triggers a rebuild with the new content.
        let inode2 = try DBGenTestSupport.inode(output)
        try DBGenTestSupport.write(
            Self.extra.replacingOccurrences(of: "ripe", with: "RIPE"), to: "in put/more things/extra.txt", in: dir)
        let rebuilt = try DBGenTestSupport.dbgen(["in put/schema.txt", "-o", "out.sqlite"], in: dir)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderrText)
        XCTAssertNotEqual(try DBGenTestSupport.inode(output), inode2)
        XCTAssertEqual(try DBGenTestSupport.query(output, "SELECT name FROM tag ORDER BY rowid;"), "fresh\nRIPE\n")

        // Touching the output (someone edited it) also triggers a rebuild.
        _ = try DBGenTestSupport.query(output, "INSERT INTO tag VALUES ('edited');")
        XCTAssertEqual(try DBGenTestSupport.dbgen(["in put/schema.txt", "-o", "out.sqlite"], in: dir).status, 0)
        XCTAssertEqual(try DBGenTestSupport.query(output, "SELECT count(*) FROM tag;"), "2\n")
    }

    func testAFileReadfileDidNotFindIsWatchedAndKeptOutOfTheDepfile() throws {
        let dir = try TemporaryDirectory("dbgen-missing", removedAfter: self).url
        try DBGenTestSupport.write(
            "CREATE TABLE t AS SELECT readfile('optional.json') AS data;\n", to: "schema.txt", in: dir)
        try TemporaryDirectory.backdateContents(of: dir)
        let first = try DBGenTestSupport.dbgen(["schema.txt", "-o", "out.sqlite", "--depfile", "out.d"], in: dir)
        XCTAssertEqual(first.status, 0, first.stderrText)
        let output = dir.appendingPathComponent("out.sqlite")
        XCTAssertEqual(try DBGenTestSupport.query(output, "SELECT quote(data) FROM t;"), "NULL\n")
        // make (the oracle) must be able to read the depfile: no prerequisite that does not exist.
        let depfile = try String(contentsOf: dir.appendingPathComponent("out.d"), encoding: .utf8)
        XCTAssertFalse(depfile.contains("optional.json"), depfile)
        try DBGenTestSupport.write("include out.d\nout.sqlite:\n\t@echo rebuild\n", to: "Makefile", in: dir)
        XCTAssertEqual(try Oracle.make.run(["-q", "out.sqlite"], in: dir).status, 0)
        // Still missing: up to date. Once it appears, the build runs and reads it.
        let again = try DBGenTestSupport.dbgen(
            ["schema.txt", "-o", "out.sqlite", "--depfile", "out.d", "--json"], in: dir)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(again.stdoutText.utf8)) as? [String: Any])?["upToDate"]
                as? Bool, true)
        try DBGenTestSupport.write("{}", to: "optional.json", in: dir)
        let appeared = try DBGenTestSupport.dbgen(
            ["schema.txt", "-o", "out.sqlite", "--depfile", "out.d", "--json"], in: dir)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(appeared.stdoutText.utf8)) as? [String: Any])?["upToDate"]
                as? Bool, false)
        XCTAssertEqual(try DBGenTestSupport.query(output, "SELECT quote(data) FROM t;"), "X'7B7D'\n")
    }

    func testAKilledBuildsTemporaryGoesAtTheNextRunEvenWhenUpToDate() throws {
        let dir = try makeProject()
        XCTAssertEqual(try DBGenTestSupport.dbgen(["in put/schema.txt", "-o", "out.sqlite"], in: dir).status, 0)
        // What kill -9 leaves: a temporary beside the output that no process holds a lock on.
        try DBGenTestSupport.write("half a database", to: ".out.sqlite.dbgen-Ab12Cd", in: dir)
        let upToDate = try DBGenTestSupport.dbgen(["in put/schema.txt", "-o", "out.sqlite", "--json"], in: dir)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(upToDate.stdoutText.utf8)) as? [String: Any])?["upToDate"]
                as? Bool, true)
        XCTAssertEqual(try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-"), [])
    }

    func testDepfileListsEveryInputAndMakeReadsIt() throws {
        let dir = try makeProject()
        let spaced = try DBGenTestSupport.dbgen(
            ["in put/schema.txt", "-o", "out db.sqlite", "--depfile", "spaced.d"], in: dir)
        XCTAssertEqual(spaced.status, 0, spaced.stderrText)
        let spacedDepfile = try String(contentsOf: dir.appendingPathComponent("spaced.d"), encoding: .utf8)
        XCTAssertTrue(spacedDepfile.hasPrefix("out\\ db.sqlite: in\\ put/schema.txt"), spacedDepfile)

        let result = try DBGenTestSupport.dbgen(
            ["in put/schema.txt", "-o", "out.sqlite", "--depfile", "out.d"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let depfile = try String(contentsOf: dir.appendingPathComponent("out.d"), encoding: .utf8)
        XCTAssertTrue(depfile.hasPrefix("out.sqlite:"), depfile)
        XCTAssertTrue(depfile.contains("in\\ put/schema.txt"), depfile)
        XCTAssertTrue(depfile.contains("in\\ put/more\\ things/extra.txt"), depfile)
        try DBGenTestSupport.write("include out.d\nout.sqlite:\n\t@echo rebuild\n", to: "Makefile", in: dir)
        // make (the oracle) sees the target up to date, then out of date once an input is newer.
        XCTAssertEqual(try Oracle.make.run(["-q", "out.sqlite"], in: dir).status, 0)
        let newer = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes(
            [.modificationDate: newer],
            ofItemAtPath: dir.appendingPathComponent("in put/more things/extra.txt").path)
        XCTAssertEqual(try Oracle.make.run(["-q", "out.sqlite"], in: dir).status, 1)
    }

    func testJSONSummaryMatchesTheDatabase() throws {
        let dir = try makeProject()
        let result = try DBGenTestSupport.dbgen(["in put/schema.txt", "-o", "out.sqlite", "--json"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        XCTAssertEqual(json["output"] as? String, "out.sqlite")
        XCTAssertEqual(json["upToDate"] as? Bool, false)
        XCTAssertNotNil(json["seconds"] as? Double)
        XCTAssertEqual((json["warnings"] as? [Any])?.count, 0)
        XCTAssertEqual(json["inputs"] as? [String], ["in put/schema.txt", "in put/more things/extra.txt"])
        let tables = try XCTUnwrap(json["tables"] as? [[String: Any]])
        let output = dir.appendingPathComponent("out.sqlite")
        let oracle = try DBGenTestSupport.query(
            output, "SELECT 'item', count(*) FROM item UNION ALL SELECT 'tag', count(*) FROM tag;")
        let reported =
            tables.map { "\($0["name"] as? String ?? "")|\($0["rows"] as? Int ?? -1)" }.sorted().joined(separator: "\n")
            + "\n"
        XCTAssertEqual(reported, oracle)
    }

    func testProgressBarOnlyOnATerminal() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        try DBGenTestSupport.write("CREATE TABLE t (a, b);\n.import --csv data.csv t\n", to: "schema.txt", in: dir)
        try DBGenTestSupport.write(String(repeating: "1,two\n", count: 1000), to: "data.csv", in: dir)
        // stderr is a pipe here: no bar.
        let piped = try DBGenTestSupport.dbgen(["schema.txt", "-o", "a.sqlite", "--progress-delay", "0"], in: dir)
        XCTAssertEqual(piped.status, 0, piped.stderrText)
        XCTAssertFalse(piped.stderrText.contains("%"), piped.stderrText)
        // Under script(1) stderr is a terminal: the bar is drawn (and erased); --quiet silences it.
        let dbgen = BuiltProducts.path("dbgen")
        let tty = try Oracle.script.run(
            ["-qec", "'\(dbgen)' schema.txt -o b.sqlite --progress-delay 0", "/dev/null"],
            in: dir)
        XCTAssertEqual(tty.status, 0, tty.stdoutText)
        XCTAssertTrue(tty.stdoutText.contains("data.csv [") && tty.stdoutText.contains("%"), tty.stdoutText)
        let quiet = try Oracle.script.run(
            ["-qec", "'\(dbgen)' schema.txt -o c.sqlite --quiet --progress-delay 0", "/dev/null"],
            in: dir)
        XCTAssertEqual(quiet.status, 0, quiet.stdoutText)
        XCTAssertFalse(quiet.stdoutText.contains("%"), quiet.stdoutText)
    }

    func testHelpShowsOptionsAndAnExample() throws {
        let help = try DBGenTestSupport.dbgen(["build", "--help"], in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(help.status, 0)
        for word in ["--depfile", "--strict", "--json", "--quiet", "--force", "Example", ".import"] {
            XCTAssertTrue(help.stdoutText.contains(word), word)
        }
        // The fingerprint is kept beside the depfile or in the cache directory, never beside OUTPUT
        // (what earlier versions did and said); the test-only --progress-delay is not shown.
        let text = help.stdoutText.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(
            separator: " ")
        XCTAssertFalse(text.contains(".OUTPUT.dbgen-fingerprint"), text)
        XCTAssertTrue(text.contains(".DEPFILE.dbgen-fingerprint") && text.contains("never beside OUTPUT"), text)
        XCTAssertFalse(text.contains("progress-delay"), text)
    }

    func testDefaultSchemaAndOutputPaths() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        try DBGenTestSupport.write("CREATE TABLE t (x);\n", to: "schema/schema.txt", in: dir)
        let result = try DBGenTestSupport.dbgen([], in: dir)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(
            try DBGenTestSupport.query(dir.appendingPathComponent("schema.sqlite"), "SELECT name FROM sqlite_schema;"),
            "t\n")
    }

    func testPathsWithSpacesAndQuotes() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        let weird = "it's \"a\" dir"
        try DBGenTestSupport.write(
            ".read \"sub \\\"q\\\"/in'ner.txt\"\n.read 'sub \"q\"/two.txt'\n", to: "\(weird)/s c'h\"ema.txt", in: dir)
        try DBGenTestSupport.write("CREATE TABLE one (x);\n", to: "\(weird)/sub \"q\"/in'ner.txt", in: dir)
        try DBGenTestSupport.write("CREATE TABLE two (x);\n", to: "\(weird)/sub \"q\"/two.txt", in: dir)
        let result = try DBGenTestSupport.dbgen(["\(weird)/s c'h\"ema.txt", "-o", "\(weird)/o u't.sqlite"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(
            try DBGenTestSupport.query(
                dir.appendingPathComponent("\(weird)/o u't.sqlite"),
                "SELECT name FROM sqlite_schema ORDER BY name;"), "one\ntwo\n")
        try DBGenTestSupport.write("CREATE TABLE three (x);\nBOOM;\n", to: "\(weird)/sub \"q\"/two.txt", in: dir)
        let failed = try DBGenTestSupport.dbgen(["\(weird)/s c'h\"ema.txt", "-o", "\(weird)/o u't.sqlite"], in: dir)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderrText.hasPrefix("\(weird)/sub \"q\"/two.txt:2:1: error:"), failed.stderrText)
    }

    /// A script slow enough to be interrupted: a few million generated rows.
    static let slowSchema = """
        CREATE TABLE big (id INTEGER PRIMARY KEY, payload BLOB);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 20000000)
          INSERT INTO big SELECT i, randomblob(64) FROM n;

        """

    private func startSlowBuild(in dir: URL) throws -> Process {
        try DBGenTestSupport.write(Self.slowSchema, to: "slow.txt", in: dir)
        let process = try ProcessRunner.start(
            BuiltProducts.path("dbgen"), ["slow.txt", "-o", "out.sqlite", "--quiet"], in: dir)
        // Wait until the temporary database exists and is growing.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let temps = try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-")
                .filter { !$0.hasSuffix("fingerprint") && !$0.hasSuffix(".lock") }
            if let temp = temps.first,
                let size = try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(temp).path)[
                    .size] as? Int,
                size > 1_000_000
            {
                break
            }
            usleep(20_000)
        }
        return process
    }

    func testKillDuringBuildLeavesOutputAsItWas() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        try DBGenTestSupport.write("CREATE TABLE old (x);\n", to: "old.txt", in: dir)
        XCTAssertEqual(try DBGenTestSupport.dbgen(["old.txt", "-o", "out.sqlite"], in: dir).status, 0)
        let before = DBGenTestSupport.bytes(dir.appendingPathComponent("out.sqlite"))

        let killed = try startSlowBuild(in: dir)
        XCTAssertTrue(killed.isRunning, "the build finished too fast to be interrupted")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        XCTAssertEqual(killed.terminationReason, .uncaughtSignal)
        XCTAssertEqual(DBGenTestSupport.bytes(dir.appendingPathComponent("out.sqlite")), before)

        // The killed build's stray temporary file and its sidecar lock (free now that its
        // holder is dead) are removed by the next build.
        let strays = try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-").filter {
            !$0.hasSuffix("fingerprint")
        }.sorted()
        XCTAssertEqual(strays.count, 2, "\(strays)")
        XCTAssertEqual(strays.last, (strays.first ?? "") + ".lock")
        XCTAssertEqual(try DBGenTestSupport.dbgen(["old.txt", "-o", "out.sqlite", "--force"], in: dir).status, 0)
        XCTAssertEqual(
            try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-").filter { !$0.hasSuffix("fingerprint") },
            [])
        let before2 = DBGenTestSupport.bytes(dir.appendingPathComponent("out.sqlite"))
        XCTAssertEqual(before2, before, "same inputs, same bytes")

        // SIGTERM (and Ctrl-C) remove the temporary file at once.
        let terminated = try startSlowBuild(in: dir)
        kill(terminated.processIdentifier, SIGTERM)
        terminated.waitUntilExit()
        XCTAssertEqual(DBGenTestSupport.bytes(dir.appendingPathComponent("out.sqlite")), before)
        XCTAssertEqual(
            try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-").filter { !$0.hasSuffix("fingerprint") },
            [])
    }

    /// Under `nohup` (SIGHUP ignored) a hangup does not end the build: dbgen's cleanup handler
    /// leaves an ignored signal ignored.
    func testAnIgnoredHangupDoesNotStopTheBuild() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        try DBGenTestSupport.write(
            """
            CREATE TABLE big (id INTEGER PRIMARY KEY, payload BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 1500000)
              INSERT INTO big SELECT i, randomblob(16) FROM n;

            """, to: "slow.txt", in: dir)
        // python3 ignores SIGHUP and execs dbgen, which keeps the disposition and the pid (as nohup does).
        let build = try ProcessRunner.start(
            try Oracle.python3.path(),
            [
                "-c",
                "import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])",
                BuiltProducts.path("dbgen"), "slow.txt", "-o", "out.sqlite", "--quiet",
            ], in: dir)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, build.isRunning,
            try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-").first(where: { name in
                !name.hasSuffix(".lock")
                    && ((try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size]
                        as? Int) ?? 0) > 100_000
            }) == nil
        {
            usleep(10_000)
        }
        XCTAssertTrue(build.isRunning, "the build finished too fast to be signalled")
        kill(build.processIdentifier, SIGHUP)
        build.waitUntilExit()
        XCTAssertEqual(build.terminationReason, .exit)
        XCTAssertEqual(build.terminationStatus, 0)
        XCTAssertEqual(
            try DBGenTestSupport.query(dir.appendingPathComponent("out.sqlite"), "SELECT count(*) FROM big;"),
            "1500000\n")
    }

    #if os(Linux)
    /// The file SQLite writes is never flock()ed: on Darwin flock() and fcntl() locks share one
    /// list per file, so SQLite's own locks on it would fail ("database is locked"). A running
    /// build marks its temporary alive with a flock on the sidecar only. /proc/locks lists every
    /// lock the running build holds.
    func testARunningBuildFlocksOnlyItsSidecarAndSQLiteAloneLocksTheDatabase() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        let build = try startSlowBuild(in: dir)
        defer {
            kill(build.processIdentifier, SIGKILL)
            build.waitUntilExit()
        }
        XCTAssertTrue(build.isRunning, "the build finished too fast to be looked at")
        let temporary = try XCTUnwrap(
            try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-")
                .first { !$0.hasSuffix("fingerprint") && !$0.hasSuffix(".lock") })
        func inode(_ name: String) throws -> UInt64 {
            try XCTUnwrap(
                try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[
                    .systemFileNumber] as? UInt64)
        }
        // `1: POSIX  ADVISORY  WRITE 1234 08:01:5678 0 EOF`: kind, pid and MAJOR:MINOR:INODE.
        let locks = try String(contentsOfFile: "/proc/locks", encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: " ") }.filter { $0.count >= 6 && $0[1] != "->" }
        func kinds(_ name: String) throws -> Set<String> {
            let inode = try inode(name)
            return Set(
                locks.filter { $0[4] == "\(build.processIdentifier)" && $0[5].hasSuffix(":\(inode)") }.map {
                    String($0[1])
                })
        }
        XCTAssertEqual(try kinds(temporary), ["POSIX"], "SQLite's fcntl locks only")
        XCTAssertEqual(try kinds(temporary + ".lock"), ["FLOCK"], "liveness: a flock on the sidecar")
    }
    #endif

    func testConcurrentBuildsLeaveAValidDatabase() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        try DBGenTestSupport.write(
            """
            CREATE TABLE n (i INTEGER PRIMARY KEY, s TEXT);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 200000)
              INSERT INTO n SELECT i, hex(i) FROM c;

            """, to: "schema.txt", in: dir)
        let processes = try (0..<2).map { _ -> Process in
            try ProcessRunner.start(
                BuiltProducts.path("dbgen"), ["schema.txt", "-o", "out.sqlite", "--force", "--quiet"], in: dir)
        }
        for process in processes {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let output = dir.appendingPathComponent("out.sqlite")
        XCTAssertEqual(
            try DBGenTestSupport.query(output, "PRAGMA integrity_check; SELECT count(*) FROM n;"), "ok\n200000\n")
        XCTAssertEqual(
            try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-").filter { !$0.hasSuffix("fingerprint") },
            [])
    }
}
