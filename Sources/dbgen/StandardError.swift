import Foundation

/// Where dbgen talks to people: diagnostics and notes go to standard error.
enum StandardError {
    /// Writes `line` and a newline to standard error.
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
