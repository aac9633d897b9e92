import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A server that accepts the connection and then says nothing costs `dbgen fetch` no CPU: the
/// transport sleeps until a byte, its stall timeout or its deadline (FoundationNetworking's
/// busy wait kept a core at 90% here). The CPU time is the child's own, from `wait4`'s rusage,
/// less what a run that fails at once costs (start-up, the root, the database in effect), so the
/// comparison holds on a loaded machine: a busy wait would cost seconds, the sleep costs nothing.
final class SilentServerTests: XCTestCase {
    static let stall: TimeInterval = 4

    func testASilentServerCostsTheFetchNoCPU() throws {
        for sendsHead in [false, true] {
            let fixture = try FeedFixture(removedAfter: self)
            let server = try FaultInjectingHTTPServer()
            defer { server.stop() }
            try fixture.serve(on: server)
            // The first request of a device: the next root (its 404 ends the chain).
            server.script("2.root.json", .silent(sendsHead: sendsHead))
            let root = fixture.temporary.url("root.json")
            try fixture.writer.bundledRoot.write(to: root)
            func arguments(_ url: URL) -> [String] {
                [
                    "fetch", url.absoluteString, "--root", root.path, "--bundled", fixture.bundled.path,
                    "--updates", fixture.updates.path,
                ]
            }

            // What a run costs without waiting: nothing listens on port 1, the connection is refused.
            let quick = try ChildRun(BuiltProducts.path("dbgen"), arguments(URL(string: "http://127.0.0.1:1/")!))
            let baseline = quick.waitForExit()
            XCTAssertEqual(baseline.status, 1)

            let child = try ChildRun(BuiltProducts.path("dbgen"), arguments(server.url("/")))
            let asked = Date().addingTimeInterval(60)
            while server.requestCount("2.root.json") == 0, Date() < asked { usleep(20_000) }
            XCTAssertEqual(server.requestCount("2.root.json"), 1, "the fetch never asked")
            Thread.sleep(forTimeInterval: Self.stall)
            let stalled = child.kill()
            XCTAssertTrue(stalled.wasRunning, "the fetch ended while the server was silent")
            let cost = stalled.cpuSeconds - baseline.cpuSeconds
            XCTAssertLessThan(
                cost, 0.5,
                "head sent: \(sendsHead): \(stalled.cpuSeconds) s of CPU over a \(Self.stall) s stall "
                    + "(a run that fails at once: \(baseline.cpuSeconds) s)")
        }
    }
}

/// A child process started with posix_spawn (its output to /dev/null), whose CPU time is read
/// from `wait4`'s rusage when it is reaped.
private final class ChildRun {
    let pid: pid_t

    init(_ path: String, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
        self.pid = pid
    }

    struct Exit {
        var status: Int32
        var cpuSeconds: Double
        var wasRunning: Bool
    }

    /// Waits for the child to end by itself.
    func waitForExit() -> Exit { reap(wasRunning: false) }

    /// Kills the child (SIGKILL) and reaps it; `wasRunning` says whether it was still running.
    func kill() -> Exit {
        var status: Int32 = 0
        let running = waitpid(pid, &status, WNOHANG) == 0
        guard running else { return Exit(status: status, cpuSeconds: .infinity, wasRunning: false) }
        Glibc.kill(pid, SIGKILL)
        return reap(wasRunning: true)
    }

    private func reap(wasRunning: Bool) -> Exit {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
        return Exit(status: exitStatus, cpuSeconds: cpu, wasRunning: wasRunning)
    }
}
