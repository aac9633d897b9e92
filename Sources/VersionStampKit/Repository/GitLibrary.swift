import CGit2
#if os(Linux)
import CGit2Loader
#endif

/// Process-wide libgit2 set-up.
enum GitLibrary {
    private static let initialized: Bool = {
        git_libgit2_init()
        // Like git, do not re-hash every object read (a cold count reads every commit).
        _ = shipyard_git_set_strict_hash_verification(0)
        return true
    }()

    /// Calls `git_libgit2_init` once per process.
    static func initialize() { _ = initialized }

    /// Opens libgit2 where it is opened at its first call (Linux: CGit2Loader), so that a
    /// missing library is this error rather than a stop inside the first libgit2 call.
    ///
    /// - Throws: ``VersionStampError`` (`.gitFailure`) naming the library and the package.
    static func requireLoaded() throws {
        #if os(Linux)
        if let failure = shipyard_git2_load_failure() {
            throw VersionStampError(.gitFailure, message: String(cString: failure))
        }
        #endif
    }

    /// libgit2's message for the last failure in this thread.
    static func lastErrorMessage() -> String {
        if let error = git_error_last(), let message = error.pointee.message {
            return String(cString: message)
        }
        return "unknown libgit2 error"
    }

    /// The error class (`GIT_ERROR_CONFIG`, `GIT_ERROR_REPOSITORY`, …) of the last failure in
    /// this thread, nil when there is none.
    static func lastErrorClass() -> UInt32? {
        git_error_last().map { UInt32(bitPattern: $0.pointee.klass) }
    }

    /// Throws a `VersionStampError` when `status` is a libgit2 failure.
    static func check(_ status: Int32, _ doing: String) throws {
        if status < 0 {
            throw VersionStampError(.gitFailure, message: "\(doing): \(lastErrorMessage())")
        }
    }
}

extension git_oid {
    /// The 40-digit hexadecimal id.
    var hex: String {
        var copy = self
        var buffer = [CChar](repeating: 0, count: 41)
        git_oid_fmt(&buffer, &copy)
        return String(cString: buffer)
    }
}
