import Foundation
import SyncServerTestSupport

// The convergence test's random choices, faults and counts (SyncConvergenceTests).

/// SplitMix64: the schedule's random choices, fixed by its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The proxy's fault for each request, seeded per schedule: about one request in three meets a
/// fault while enabled.
final class SeededFaults: @unchecked Sendable {
    private let lock = NSLock()
    private var random: SplitMix
    private var isEnabled = true

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    var enabled: Bool {
        get { lock.withLock { isEnabled } }
        set { lock.withLock { isEnabled = newValue } }
    }

    func reseed(_ seed: UInt64) { lock.withLock { random = SplitMix(seed: seed) } }

    func next() -> SyncFault {
        lock.withLock {
            guard isEnabled, Int.random(in: 0..<3, using: &random) == 0 else { return .none }
            let faults = SyncFault.allCases.filter { $0 != .none }
            return faults[Int.random(in: 0..<faults.count, using: &random)]
        }
    }
}

/// A lane: a proxy and its faults.
struct Lane {
    let proxy: SyncFaultProxy
    let faults: SeededFaults
}

/// A counter shared by the lanes.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    /// The value before adding one.
    func take() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}

/// What the run did, counted across lanes.
final class Stats: @unchecked Sendable {
    private let lock = NSLock()
    private var schedules = 0
    private var writes = 0
    private var kills = 0
    private var errors: [String: Int] = [:]
    private var rejections = 0

    func finished(writes: Int) {
        lock.withLock {
            schedules += 1
            self.writes += writes
        }
    }

    func rejected(_ count: Int) { lock.withLock { rejections += count } }

    func killed() { lock.withLock { kills += 1 } }

    func failed(_ kind: String) { lock.withLock { errors[kind, default: 0] += 1 } }

    var snapshot: (schedules: Int, writes: Int, kills: Int, errors: [String: Int], rejections: Int) {
        lock.withLock { (schedules, writes, kills, errors, rejections) }
    }
}
