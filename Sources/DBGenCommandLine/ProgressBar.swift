import DBGenKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import FileSystemKit

/// A one-line progress bar on stderr for long imports: drawn only when stderr is a terminal,
/// only once an import has run for a moment, redrawn at most ten times a second.
package final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let delay: TimeInterval
    private var startedAt: [String: Date] = [:]
    private var lastDraw = Date.distantPast
    private var visible = false

    /// How long an import runs before the bar appears, unless told otherwise.
    package static let defaultDelay: TimeInterval = 0.5

    /// - Parameters:
    ///   - enabled: false to never draw (`--quiet`, not a terminal).
    ///   - delay: how long an import runs before the bar appears (`build`'s hidden
    ///     `--progress-delay`, which tests set to 0).
    package init(enabled: Bool = isatty(STDERR_FILENO) != 0, delay: TimeInterval = ProgressBar.defaultDelay) {
        self.enabled = enabled
        self.delay = delay
    }

    /// Reports how far an import has read.
    package func update(_ progress: ImportProgress) {
        guard enabled else { return }
        let now = Date()
        let start =
            startedAt[progress.file]
            ?? {
                startedAt[progress.file] = now; return now
            }()
        guard now.timeIntervalSince(start) >= delay, now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let fraction = progress.totalBytes > 0 ? min(1, Double(progress.bytesRead) / Double(progress.totalBytes)) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        let line = "\r\(progress.file) [\(bar)] \(Int(fraction * 100))%"
        StandardStream.writeError(line)
        visible = true
    }

    /// Erases the bar, if drawn.
    package func finish() {
        guard visible else { return }
        StandardStream.writeError("\r\u{1B}[K")
        visible = false
    }
}
