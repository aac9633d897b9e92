import ArgumentParser
import Foundation
import VersionStampKit

/// How the command tells people about failures: one `PATH[:LINE]: error: MESSAGE` line each on
/// standard error, and the exit status (64 for a usage error, else the command's failure status).
enum Diagnostics {
    /// Writes `error`'s line to standard error.
    static func report(_ error: Error) {
        let text = (error as? VersionStampError)?.description ?? "versionstamp: error: \(error)"
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Reports `errors` and returns the exit status to end with: 64 when they are all usage
    /// errors, `failure` otherwise.
    static func exit(reporting errors: [Error], failure: Int32 = 1) -> ExitCode {
        errors.forEach(report)
        let usage = !errors.isEmpty && errors.allSatisfy { ($0 as? VersionStampError)?.code.isUsage ?? false }
        return usage ? ExitCode.validationFailure : ExitCode(failure)
    }
}
