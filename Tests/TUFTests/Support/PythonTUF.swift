import Foundation
import ShipyardTestSupport
import XCTest

/// python-tuf (PyPI `tuf`) and securesystemslib through python3: the independent TUF implementation the
/// tests compare with. `scripts/setup.sh` installs it; a missing module fails the test (it never skips).
enum PythonTUF {
    /// Runs a python script with arguments and returns its standard output; a failure (including a missing
    /// module) throws with python's standard error.
    static func run(_ script: String, _ arguments: [String] = [], input: Data? = nil) throws -> String {
        let result = try Oracle.python3.run(
            ["-c", script] + arguments, environment: ["PYTHONIOENCODING": "utf-8"], input: input
        )
        guard result.status == 0 else {
            throw PythonFailed(status: result.status, stderr: result.stderrText)
        }
        return result.stdoutText
    }

    struct PythonFailed: Error, CustomStringConvertible {
        let status: Int32
        let stderr: String
        var description: String { "python3 (python-tuf oracle) exited \(status): \(stderr)" }
    }
}
