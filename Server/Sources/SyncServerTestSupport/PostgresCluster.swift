import Foundation

/// A PostgreSQL 15 cluster of a test's own: `initdb` into a temporary directory, `pg_ctl` to
/// start it on 127.0.0.1 and a free port (its unix socket inside the directory), stopped and
/// removed by ``stop()``. Never a shared cluster.
///
/// PostgreSQL refuses to run as root: when this process is root (CI is), the cluster runs as the
/// `postgres` user that Debian's `postgresql` package creates (scripts/setup.sh installs it),
/// through `runuser`. The binaries come from `/usr/lib/postgresql/15/bin`, or the directory in
/// `SHIPYARD_POSTGRES_BIN`; when they are missing the cluster fails to start (a test never skips).
public final class PostgresCluster: @unchecked Sendable {
    /// The directory holding the data, the socket and the log.
    public let directory: String
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The superuser (trust authentication, loopback only).
    public let user = "shipyard"
    /// The user the server processes run as (nil: this process's).
    let osUser: String?
    let binaries: String
    private var running = false

    /// The data directory.
    public var dataDirectory: String { directory + "/data" }
    /// The server's log file.
    public var logFile: String { directory + "/postgres.log" }
    /// A URL for the `postgres` database (or `database`), for `--postgres` and ``PostgresURL``.
    public func url(database: String = "postgres") -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates and starts a cluster. `settings` are extra `postgres -c NAME=VALUE` settings.
    public static func start(settings: [String: String] = [:]) throws -> PostgresCluster {
        let cluster = try PostgresCluster()
        try cluster.initialize()
        try cluster.start(settings: settings)
        return cluster
    }

    /// Creates and starts a streaming replica of `primary` (a hot standby: `pg_basebackup -R`
    /// from it over 127.0.0.1, then started on a port of its own), read-only, replaying the
    /// primary's commits in order.
    public static func startReplica(of primary: PostgresCluster) throws -> PostgresCluster {
        let replica = try PostgresCluster()
        let result = try CommandRunner.run(
            replica.binaries + "/pg_basebackup",
            [
                "-h", "127.0.0.1", "-p", "\(primary.port)", "-U", primary.user, "-D", replica.dataDirectory, "-R",
                "-X", "stream", "-c", "fast", "--no-sync",
            ],
            as: replica.osUser)
        guard result.status == 0 else {
            throw TestSupportError("pg_basebackup failed: \(result.errors)\(result.output)")
        }
        try replica.start()
        return replica
    }

    private init() throws {
        binaries = ProcessInfo.processInfo.environment["SHIPYARD_POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin"
        guard FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else {
            throw TestSupportError(
                "PostgreSQL 15 is not installed (\(binaries)/initdb missing): run scripts/setup.sh, which installs Debian's postgresql"
            )
        }
        osUser = getuid() == 0 ? "postgres" : nil
        var template = Array((NSTemporaryDirectory() + "/shipyard-postgres-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestSupportError("mkdtemp failed: errno \(errno)") }
        directory = URL(fileURLWithPath: String(cString: made)).standardizedFileURL.path
        if let osUser {
            guard let account = getpwnam(osUser) else {
                throw TestSupportError(
                    "running as root, but there is no '\(osUser)' user to run PostgreSQL as: install postgresql")
            }
            guard chown(directory, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw TestSupportError("chown \(directory) failed: errno \(errno)")
            }
        }
        port = try freeLoopbackPort()
    }

    private func initialize() throws {
        let result = try CommandRunner.run(
            binaries + "/initdb",
            [
                "-D", dataDirectory, "-U", user, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync",
                "--no-instructions",
            ],
            as: osUser)
        guard result.status == 0 else { throw TestSupportError("initdb failed: \(result.errors)\(result.output)") }
    }

    /// Starts the cluster (again, after ``stop(mode:removing:)`` with `removing: false`).
    public func start(settings: [String: String] = [:]) throws {
        var options = "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories=\(directory)"
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) { options += " -c \(name)=\(value)" }
        let result = try CommandRunner.run(
            binaries + "/pg_ctl", ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "-o", options, "start"],
            as: osUser)
        guard result.status == 0 else {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            throw TestSupportError("pg_ctl start failed: \(result.errors)\(result.output)\n\(log.suffix(2000))")
        }
        running = true
    }

    /// Stops the cluster: `fast` (clients disconnected, a clean shutdown) or `immediate` (as a
    /// crash: recovery from the WAL at the next start). `removing` deletes its directory.
    public func stop(mode: String = "fast", removing: Bool = true) throws {
        if running {
            let result = try CommandRunner.run(
                binaries + "/pg_ctl", ["-D", dataDirectory, "-m", mode, "-w", "-t", "60", "stop"], as: osUser)
            guard result.status == 0 else { throw TestSupportError("pg_ctl stop failed: \(result.errors)") }
            running = false
        }
        if removing { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Runs SQL through psql (`-At`: unaligned rows, no headers); returns what it printed.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try CommandRunner.run(
            binaries + "/psql",
            [
                "-X", "-At", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", database,
                "-c", sql,
            ])
        guard result.status == 0 else { throw TestSupportError("psql failed: \(result.errors)") }
        return result.output
    }

    deinit {
        if running { try? stop() } else { try? FileManager.default.removeItem(atPath: directory) }
    }
}
