import Foundation
import HTTPTransport
import ShipyardTestSupport
import XCTest

/// A handler that keeps what it is given: the head, and the body's bytes (at most what the cap
/// lets through), receiving the body of any status unless told to skip.
final class Collector: HTTPResponseHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var heads: [HTTPResponseHead] = []
    private var bytes = Data()
    private let decide: (HTTPResponseHead) throws -> HTTPBodyDecision

    init(_ decide: @escaping (HTTPResponseHead) throws -> HTTPBodyDecision = { _ in .receive }) {
        self.decide = decide
    }

    func head(_ head: HTTPResponseHead) throws -> HTTPBodyDecision {
        lock.withLock { heads.append(head) }
        return try decide(head)
    }

    func body(_ bytes: UnsafeRawBufferPointer) throws {
        lock.withLock { self.bytes.append(contentsOf: bytes) }
    }

    /// The heads seen (one per exchange: a redirect is never shown).
    var seenHeads: [HTTPResponseHead] { lock.withLock { heads } }
    /// The body bytes received.
    var body: Data { lock.withLock { bytes } }
}

extension XCTestCase {
    /// The error `send` throws, failing the test when it returns a head instead.
    func failure(
        _ request: HTTPRequest, to handler: HTTPResponseHandler, file: StaticString = #filePath, line: UInt = #line
    ) async -> Error? {
        do {
            let head = try await HTTPClient().send(request, to: handler)
            XCTFail("the exchange succeeded: \(head.status)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}
