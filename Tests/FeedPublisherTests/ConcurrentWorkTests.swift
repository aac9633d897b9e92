@testable import FeedPublisher
import Foundation
import XCTest

/// The pieces of a publish run side by side, but what they give is in their order, and a
/// failure is the same one whatever finished first.
final class ConcurrentWorkTests: XCTestCase {
    private struct Failed: Error, Equatable {
        let index: Int
    }

    func testResultsComeInIndexOrderAndTheLowestFailureIsThrown() throws {
        let squares = try ConcurrentWork.map(64) { index -> Int in
            usleep(useconds_t((64 - index) * 200)) // the last ones finish first
            return index * index
        }
        XCTAssertEqual(squares, (0..<64).map { $0 * $0 })
        let finished = NSLock()
        nonisolated(unsafe) var ended = 0
        XCTAssertThrowsError(
            try ConcurrentWork.map(16) { index -> Int in
                defer {
                    finished.lock()
                    ended += 1
                    finished.unlock()
                }
                usleep(useconds_t((16 - index) * 500))
                if index == 3 || index == 11 { throw Failed(index: index) }
                return index
            }
        ) { error in
            XCTAssertEqual(error as? Failed, Failed(index: 3))
        }
        XCTAssertEqual(ended, 16, "every piece has ended before the error is thrown")
        XCTAssertEqual(try ConcurrentWork.map(0) { $0 }, [])
    }
}
