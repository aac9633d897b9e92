import Foundation

/// Sets the access and modification times of `path` to `seconds` after 1970 plus
/// `nanoseconds`, to the nanosecond (`FileManager` keeps about a microsecond), as the tests of
/// stat-based checks need; a symbolic link itself rather than its target unless
/// `followingLinks`. Stops the test run when it fails: the test would prove nothing.
public func setModificationTime(_ path: String, seconds: Int64, nanoseconds: Int64, followingLinks: Bool = true) {
    let time = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
    var times = [time, time]
    precondition(utimensat(AT_FDCWD, path, &times, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0, "utimensat \(path)")
}
