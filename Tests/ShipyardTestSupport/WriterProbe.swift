import Foundation

/// Another process asking for the right to write a database, now: the sqlite3 shell (an
/// oracle) runs `BEGIN EXCLUSIVE` with no busy timeout, then `ROLLBACK`, so it takes SQLite's
/// EXCLUSIVE lock if it can and writes nothing. It gets the lock only when no process holds
/// SQLite's SHARED (or any) lock on the file: a test holding a read transaction in its own
/// process expects it refused, and learns from a granted lock that its process's lock was
/// dropped (closing any descriptor of a file drops every POSIX lock the process holds on it).
public enum WriterProbe {
    /// True when the shell got the EXCLUSIVE lock (another process could have written the
    /// database); false when SQLite refused it ("database is locked").
    ///
    /// - Throws: ``OracleFailed`` when the shell failed otherwise, ``OracleMissing`` without it.
    public static func canWrite(_ database: String) throws -> Bool {
        let script = ".timeout 0\nBEGIN EXCLUSIVE;\nROLLBACK;\n"
        let arguments = ["-batch", "-bail", database]
        let result = try Oracle.sqlite3.run(arguments, stdin: script)
        if result.status == 0 { return true }
        if result.stderrText.contains("database is locked") { return false }
        throw OracleFailed(oracle: .sqlite3, arguments: arguments, result: result)
    }
}
