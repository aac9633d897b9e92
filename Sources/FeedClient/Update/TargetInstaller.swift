import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import LayeredDatabase
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Installs one verified download: decodes it beside itself under its facts'
/// `uncompressed_length` (never more bytes on disk than that), checks the decoded length and
/// SHA-256, checks a patch's header against its facts, and hands the file to
/// `UpdateInstaller`, which installs it atomically or leaves the database in effect as it was.
/// The decoded file is always removed; the download too once installed or refused.
struct TargetInstaller {
    let updateInstaller: UpdateInstaller
    let stagingDirectory: URL

    /// Installs `step` from its staged download `compressed`; returns the `user_version` then
    /// in effect.
    func install(_ step: UpdateStep, from compressed: URL) throws -> Int64 {
        defer { unlink(compressed.path) }
        let decoded: URL
        do {
            decoded = stagingDirectory.appendingPathComponent(
                try SHA256Digest(step.facts.uncompressedSHA256).fileName(".decoded").name)
        } catch let error as CheckedNameError {
            throw FeedUpdateError(subject: step.path, check: .facts, reason: "uncompressed_sha256: \(error)")
        }
        defer { unlink(decoded.path) }
        try decode(step, from: compressed, to: decoded)
        let facts = step.facts
        let outcome: UpdateInstaller.Outcome
        do {
            if facts.kind == .patch {
                // Hashed as it was decoded: the patch is read once more, as it is applied.
                outcome = try updateInstaller.installPatch(try checkedPatch(decoded, against: step))
            } else {
                outcome = try updateInstaller.installDatabase(at: decoded.path, sha256: facts.result.sha256)
            }
        } catch let error as FeedUpdateError {
            throw error
        } catch {
            throw FeedUpdateError(target: step.path, installing: error)
        }
        return outcome.userVersion
    }

    /// Decodes `compressed` into `destination` under the facts' length, hashing as it writes.
    private func decode(_ step: UpdateStep, from compressed: URL, to destination: URL) throws {
        let facts = step.facts
        let decoded: (length: Int64, sha256: String)
        do {
            decoded = try facts.encoding.decode(
                fileAt: compressed.path, limit: facts.uncompressedLength, into: destination.path, mode: 0o600)
        } catch let failure as any TargetEncodingFailure {
            throw FeedUpdateError(subject: step.path, check: .decoding, reason: failure.description)
        } catch let error as FileSystemError {
            throw FeedUpdateError(subject: error.path, check: .storage, reason: "\(error)")
        }
        guard decoded.length == facts.uncompressedLength else {
            throw FeedUpdateError(
                subject: step.path, check: .decoding,
                reason: "decodes to \(decoded.length) bytes, its facts say \(facts.uncompressedLength)")
        }
        guard decoded.sha256 == facts.uncompressedSHA256 else {
            throw FeedUpdateError(
                subject: step.path, check: .decoding,
                reason: "decoded SHA-256 \(decoded.sha256), its facts say \(facts.uncompressedSHA256)")
        }
    }

    /// The decoded patch, its header read once: it must be the header `dbgen diff` writes,
    /// naming the facts' base and result.
    private func checkedPatch(_ decoded: URL, against step: UpdateStep) throws -> PatchFile {
        let patch: PatchFile
        do {
            patch = try PatchFile(at: decoded.path)
        } catch {
            throw FeedUpdateError(target: step.path, installing: error)
        }
        guard let header = patch.header, let base = step.facts.base else {
            throw FeedUpdateError(subject: step.path, check: .facts, reason: "a patch without a dbgen diff header")
        }
        let result = step.facts.result
        guard header.base.userVersion == base.userVersion, header.base.sha256 == base.sha256,
            header.result.userVersion == result.userVersion, header.result.sha256 == result.sha256
        else {
            throw FeedUpdateError(
                subject: step.path, check: .facts,
                reason: "its header names user_version \(header.base.userVersion) to \(header.result.userVersion), "
                    + "its facts \(base.userVersion) to \(result.userVersion) (or other SHA-256s)")
        }
        return patch
    }
}
