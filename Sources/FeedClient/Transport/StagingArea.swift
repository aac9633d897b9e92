import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import EssentialsSupport

/// The files one download keeps in its staging directory, named for the SHA-256 the metadata
/// gives (so a partial file is only ever resumed toward the same content):
/// - `SHA256.partial`: the bytes received so far, in order from the first;
/// - `SHA256.partial.validator`: the ETag or Last-Modified of the response they came from;
/// - `SHA256`: the whole file once its length and hash are verified.
///
/// The SHA-256 is checked first (FileSystemKit's `SHA256Digest`: 64 hexadecimal digits), so
/// whatever the metadata says, these names stay in the staging directory.
struct StagingArea {
    let directory: URL
    let target: DownloadTarget
    let complete: URL
    let partial: URL
    let validatorFile: URL

    /// The staging files of `target` in `directory`.
    ///
    /// - Throws: ``DownloadError/staging(url:path:code:reason:)`` (`EINVAL`) when the target's
    ///   SHA-256 is not 64 hexadecimal digits: it names no file.
    init(directory: URL, target: DownloadTarget) throws {
        self.directory = directory
        self.target = target
        do {
            let digest = try SHA256Digest(target.sha256)
            complete = directory.appendingPathComponent(try digest.fileName().name)
            partial = directory.appendingPathComponent(try digest.fileName(".partial").name)
            validatorFile = directory.appendingPathComponent(try digest.fileName(".partial.validator").name)
        } catch let error as CheckedNameError {
            throw DownloadError.staging(
                url: target.url, path: directory.path, code: EINVAL, reason: "the SHA-256 \(error): it names no file")
        }
    }

    /// Creates the staging directory (and its parents) if it is missing.
    func prepare() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw stagingError(directory.path, code: error.underlyingPOSIXCode ?? EIO)
        }
    }

    /// The length of the staged partial file; 0 when there is none.
    func partialLength() -> Int64 {
        var status = stat()
        return stat(partial.path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Whether `file` exists.
    func exists(_ file: URL) -> Bool {
        var status = stat()
        return stat(file.path, &status) == 0
    }

    /// The validator kept beside the partial file; nil when there is none (or it is unreadable).
    func validator() -> ResponseValidator? {
        guard let data = FileManager.default.contents(atPath: validatorFile.path) else { return nil }
        return ResponseValidator(line: String(decoding: data, as: UTF8.self))
    }

    /// Keeps `validator` beside the partial file (removes the file for nil: no resume then).
    func keep(_ validator: ResponseValidator?) throws {
        guard let validator else {
            unlink(validatorFile.path)
            return
        }
        do {
            try AtomicFile.replace(
                validatorFile.path, with: Data((validator.line + "\n").utf8), tag: "validator",
                durability: .atomicOnly)
        } catch let error as FileSystemError {
            throw stagingError(error.path, code: error.code)
        }
    }

    /// A SHA-256 fed with the bytes of `file` (the partial or the complete one), and their
    /// count; an empty hash for a missing file.
    func hash(of file: URL) throws -> (hash: SHA256Stream, length: Int64) {
        var hash = SHA256Stream()
        var length: Int64 = 0
        do {
            try ContentHash.forEachChunk(ofFileAt: file.path) { chunk in
                hash.update(chunk)
                length += Int64(chunk.count)
            }
        } catch let error as FileSystemError where error.code == ENOENT {
            return (SHA256Stream(), 0)
        } catch let error as FileSystemError {
            throw stagingError(error.path, code: error.code)
        }
        return (hash, length)
    }

    /// Removes the partial file and its validator: they can never give the expected file.
    func discardPartial() {
        unlink(partial.path)
        unlink(validatorFile.path)
    }

    /// Makes the verified partial file the complete one (flushed first) and drops its validator.
    func promotePartial() throws {
        do {
            try AtomicFile.moveIntoPlace(partial.path, as: complete.path)
        } catch let error as FileSystemError {
            throw stagingError(error.path, code: error.code)
        }
        unlink(validatorFile.path)
    }

    /// A ``DownloadError/staging(url:path:code:reason:)`` for `path` and `errno` `code`.
    func stagingError(_ path: String, code: Int32) -> DownloadError {
        .staging(url: target.url, path: path, code: code, reason: String(cString: strerror(code)))
    }
}
