import Crypto
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

/// A hash computed as bytes arrive (SHA-256, SHA-384 or SHA-512).
public struct RunningHash {
    private let add: (Data) -> Void
    private let digest: () -> String

    init<H: HashFunction>(_ function: H) {
        let box = HashBox(function)
        add = { box.function.update(data: $0) }
        digest = { Hex.encode(box.function.finalize()) }
    }

    /// Adds bytes.
    public mutating func update(_ data: Data) { add(data) }

    /// The digest in lowercase hex.
    public func finalizeHex() -> String { digest() }
}

private final class HashBox<H: HashFunction> {
    var function: H
    init(_ function: H) { self.function = function }
}
