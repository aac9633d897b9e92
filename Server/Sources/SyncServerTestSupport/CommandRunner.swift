import Foundation

/// Runs a command to its end, capturing what it prints; optionally as another user (through
/// `runuser`, when this process is root and the command refuses root, as PostgreSQL's do).
public enum CommandRunner {
    /// What a command printed and how it ended.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var output: String
        /// Standard error.
        public var errors: String
    }

    /// Runs `executable` with `arguments` as `user` (nil: this process's user).
    ///
    /// posix_spawn and waitpid, not Foundation's Process: a daemon the command starts (pg_ctl's
    /// postmaster) inherits what the parent had open, and Process would wait for that to close.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], as user: String? = nil) throws -> Result {
        let argv = user.map { ["/usr/sbin/runuser", "-u", $0, "--", executable] } ?? [executable]
        let all = argv + arguments
        let directory = NSTemporaryDirectory() + "/shipyard-command-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var cArguments = all.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, all[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw TestSupportError("cannot run \(all[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw TestSupportError("waitpid failed: errno \(errno)") }
        }
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let read = { (name: String) in
            (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
        }
        return Result(status: exitStatus, output: read("out"), errors: read("err"))
    }
}

/// A free TCP port on 127.0.0.1 (bound once by this process, then released).
public func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw TestSupportError("bind() to 127.0.0.1 failed: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A failure of the test support (a server that would not start), with what went wrong.
public struct TestSupportError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
