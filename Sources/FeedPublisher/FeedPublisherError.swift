#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TUF

/// Why a feed command failed: what failed (a file, a document of the feed, a target, a key's
/// source) and why. ``line`` is the `WHAT: error: WHY` line `dbgen` prints.
///
/// Every command checks before it writes: when it throws, the feed is as it was (a publish
/// killed or failing after its first write leaves only unnamed target files, which a feed that
/// verifies may hold).
public struct FeedPublisherError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed: a path, a feed document (`timestamp.json`), a target path or a key's source.
    public let subject: String
    /// Why, naming the check.
    public let reason: String

    /// An error about `subject`.
    public init(_ subject: String, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }

    /// `WHAT: error: WHY`.
    public var line: String { "\(subject): error: \(reason)" }

    public var description: String { line }
}

extension FeedPublisherError {
    /// A client error as `SUBJECT: error: DETAIL`: what TUF refused and the check that refused it.
    init(_ error: TUFError) {
        self.init(error.subject, error.detail)
    }

    /// Runs `body`, turning any other error into one about `subject` (its message the reason).
    static func about<T>(_ subject: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FeedPublisherError {
            throw error
        } catch {
            throw FeedPublisherError(subject, "\(error)")
        }
    }
}
