import FileSystemKit
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
import EssentialsSupport

/// Where a private key is read from: a key file (`PATH`), standard input (`-`) or an
/// environment variable (`env:NAME`) holding what a key file holds. The key is never on the
/// command line, and no error or output shows it.
public enum SigningKeySource: Equatable, Sendable, CustomStringConvertible {
    /// A key file.
    case file(String)
    /// Standard input.
    case standardInput
    /// An environment variable.
    case environment(String)

    /// The source an argument names: `-`, `env:NAME` or a path.
    public init(argument: String) {
        if argument == "-" {
            self = .standardInput
        } else if argument.hasPrefix("env:") {
            self = .environment(String(argument.dropFirst(4)))
        } else {
            self = .file(argument)
        }
    }

    /// As written on the command line: the subject of errors about the key.
    public var description: String {
        switch self {
        case .file(let path): return path
        case .standardInput: return "-"
        case .environment(let name): return "env:\(name)"
        }
    }

    /// Reads the key.
    ///
    /// - Parameters:
    ///   - environment: The variables `env:NAME` reads.
    ///   - standardInput: What `-` reads (called once); nil reads the process's standard input.
    /// - Throws: ``FeedPublisherError`` naming the source: missing file or variable, or not a key.
    public func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        standardInput: (() -> Data)? = nil
    ) throws -> Ed25519SigningKey {
        let text: String
        switch self {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw FeedPublisherError(description, "cannot read the key file (\(String(cString: strerror(errno))))")
            }
            text = String(decoding: data, as: UTF8.self)
        case .standardInput:
            let bytes = standardInput?() ?? Data((try? StandardStream.readInput()) ?? [])
            text = String(decoding: bytes, as: UTF8.self)
        case .environment(let name):
            guard !name.isEmpty else { throw FeedPublisherError(description, "no variable name after env:") }
            guard let value = environment[name] else {
                throw FeedPublisherError(description, "the environment variable \(name) is not set")
            }
            text = value
        }
        return try SigningKeyFile.key(fromText: text, source: description)
    }
}

extension Ed25519SigningKey {
    /// The public key as 64 lowercase hexadecimal digits (TUF's `keyval.public`).
    public var publicHex: String { publicKey.publicValue }

    /// The key's TUF key id.
    var keyID: String { (try? publicKey.keyID) ?? "" }
}
