import Foundation

/// python-tuf (PyPI `tuf`) and securesystemslib through python3: the independent TUF implementation the
/// tests compare with. `scripts/setup.sh` installs it; a missing module fails the test (it never skips).
public enum PythonTUF {
    /// The start of a python script that runs python-tuf's own client (ngclient's `Updater`) on a
    /// directory: it imports `os`, `sys` and `Updater`, and defines `FileFetcher`, a fetcher that
    /// reads `file://` URLs (a missing file is a 404, as a server would answer).
    public static let fileClientPreamble = """
        import os, sys
        from tuf.api.exceptions import DownloadHTTPError
        from tuf.ngclient import Updater
        from tuf.ngclient.fetcher import FetcherInterface

        class FileFetcher(FetcherInterface):
            def _fetch(self, url):
                path = url[len("file://"):]
                if not os.path.exists(path):
                    raise DownloadHTTPError(f"{url} not found", 404)
                with open(path, "rb") as f:
                    yield f.read()

        """

    /// Runs a python script with arguments and returns its standard output; a failure (including a missing
    /// module) throws with python's standard error.
    public static func run(_ script: String, _ arguments: [String] = [], input: Data? = nil) throws -> String {
        let result = try Oracle.python3.run(
            ["-c", script] + arguments, environment: ["PYTHONIOENCODING": "utf-8"], input: input
        )
        guard result.status == 0 else {
            throw PythonFailed(status: result.status, stderr: result.stderrText)
        }
        return result.stdoutText
    }

    /// python3 exited with another status than 0: its status and standard error.
    public struct PythonFailed: Error, CustomStringConvertible {
        /// python3's exit status.
        public let status: Int32
        /// What python3 wrote to standard error.
        public let stderr: String
        public var description: String { "python3 (python-tuf oracle) exited \(status): \(stderr)" }
    }
}
