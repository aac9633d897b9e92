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
import LayeredDatabase
import TUF
import EssentialsSupport

/// Why a check or an update failed: what failed (a metadata document such as `timestamp.json`,
/// a target path such as `patches/BASE-RESULT.sql.zlib`, or a file of the updates directory)
/// and which check refused it.
///
/// `description` reads `WHAT: error: WHY`, as `dbgen fetch` prints it, and so does
/// `localizedDescription` (it is a `LocalizedError`): an app can show or log either. After any of these,
/// nothing new is installed and no refused document or blob is kept (a download cut by the
/// network or by cancellation may wait in the staging area for the next run to resume).
public struct FeedUpdateError: LocalizedError, Equatable, Sendable, CustomStringConvertible {
    /// The check that failed.
    public enum Check: String, Equatable, Sendable {
        /// Too few valid signatures from the role's keys (an unknown key, a bad signature,
        /// below the threshold).
        case signature
        /// The document's `expires` has passed (a freeze).
        case expired
        /// A version lower than one the client has already seen (a rollback).
        case rollback
        /// A version other than the one the referring document names (documents of two
        /// publications mixed).
        case versionMismatch
        /// The bytes' length or SHA-256 is not what the signed metadata says.
        case lengthOrHash
        /// More bytes than the cap or the metadata's length (endless data, a decompression bomb).
        case tooLarge
        /// Not a document of the expected form.
        case malformed
        /// The server has no such file.
        case notFound
        /// The server answered with an unexpected HTTP status.
        case httpStatus
        /// The network failed (a connection refused, reset, or stalled).
        case network
        /// A target's `custom.shipyard` facts are missing, inconsistent or unreadable.
        case facts
        /// A target does not decode (decompress, and unpack for a packed patch) to what its
        /// facts say.
        case decoding
        /// `UpdateInstaller` refused the file (a patch for another base, a refused statement,
        /// an integrity check).
        case install
        /// Reading or writing the updates directory failed (a full disk).
        case storage
        /// The task was cancelled.
        case cancelled
        /// The plan given to ``FeedUpdater/update(_:progress:)`` is no longer the latest check's.
        case outdatedPlan
    }

    /// What failed: a document, a target path, or a file.
    public let subject: String
    /// The check that failed.
    public let check: Check
    /// Why, in words (the subject not repeated).
    public let reason: String

    /// An error.
    public init(subject: String, check: Check, reason: String) {
        self.subject = subject
        self.check = check
        self.reason = reason
    }

    /// `WHAT: error: WHY`.
    public var description: String { "\(subject): error: \(reason)" }

    /// `WHAT: error: WHY`, as ``description``: what `localizedDescription` returns, rather than
    /// Foundation's "The operation couldn't be completed" with a code.
    public var errorDescription: String? { description }
}

extension FeedUpdateError {
    /// The error a TUF refusal becomes: its subject (a download's as the document its URL
    /// names) and its check, with TUF's detail as the reason.
    init(_ error: TUFError) {
        let check: Check
        switch error {
        case .malformed, .wrongType, .missingMeta, .outOfOrder: check = .malformed
        case .tooLarge: check = .tooLarge
        case .belowThreshold: check = .signature
        case .rollback: check = .rollback
        case .sameVersion, .versionMismatch: check = .versionMismatch
        case .expired: check = .expired
        case .lengthOrHashMismatch: check = .lengthOrHash
        case .targetNotFound: check = .notFound
        case .download: check = .network
        case .storage: check = .storage
        }
        var subject = error.subject
        if case .download(let url, _) = error { subject = Self.documentName(url) }
        self.init(subject: subject, check: check, reason: error.detail)
    }

    /// The error a metadata fetch failure becomes, naming the document fetched.
    init(fetching error: Error) {
        switch error {
        case let error as TUFError: self.init(error)
        case FetchError.notFound(let url):
            self.init(subject: Self.documentName(url), check: .notFound, reason: "\(url): not found")
        case FetchError.tooLarge(let url, let limit):
            self.init(
                subject: Self.documentName(url), check: .tooLarge,
                reason: "\(url): more than \(limit) bytes: refused before parsing")
        case HTTPFetchError.status(let url, let code):
            self.init(subject: Self.documentName(url), check: .httpStatus, reason: "\(url): HTTP status \(code)")
        case HTTPFetchError.cancelled(let url):
            self.init(subject: Self.documentName(url), check: .cancelled, reason: "\(url): cancelled")
        case let error as HTTPFetchError:
            self.init(subject: Self.documentName(error.url), check: .network, reason: error.description)
        case let error as FeedUpdateError: self = error
        default: self.init(subject: "feed", check: .network, reason: "\(error)")
        }
    }

    /// The error a download failure of `target` becomes.
    init(target: String, downloading error: DownloadError) {
        let check: Check
        switch error {
        case .hashMismatch, .truncated: check = .lengthOrHash
        case .tooManyBytes: check = .tooLarge
        case .httpStatus(_, let status, _): check = status == 404 ? .notFound : .httpStatus
        case .staging: check = .storage
        case .cancelled: check = .cancelled
        case .rangeNotSatisfiable, .unexpectedContentRange, .fileChanged, .stalled, .deadlineExceeded, .compressed,
            .transport:
            check = .network
        }
        self.init(subject: target, check: check, reason: error.description)
    }

    /// The error an install refusal of `target` becomes.
    init(target: String, installing error: Error) {
        if let error = error as? LayeredDatabaseError {
            let place = error.path.map {
                PathText.lastComponent($0) + (error.line.map { ":\($0)" } ?? "") + ": "
            }
            self.init(subject: target, check: .install, reason: (place ?? "") + error.message)
        } else {
            self.init(subject: target, check: .install, reason: "\(error)")
        }
    }

    /// The document a metadata URL names (`timestamp.json`, `3.snapshot.json`).
    static func documentName(_ url: String) -> String {
        url.split(separator: "/").last.map(String.init) ?? url
    }
}
