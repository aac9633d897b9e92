#if canImport(CSHA256)
import CSHA256
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The code that runs SHA-256's compression function (FIPS 180-4 §6.2.2) for ``SHA256Hasher``:
/// the CPU's own SHA instructions where it has them (x86-64 SHA-NI, ARMv8 SHA2, through the
/// CSHA256 C target, on Linux; Apple platforms hash with CryptoKit), FileSystemKit's portable
/// Swift otherwise. Chosen once per process: ``fastest``.
package enum SHA256Compression: CustomStringConvertible, Sendable {
    /// FileSystemKit's Swift code: every platform, about 170 MB/s on a 2020s x86-64 core.
    case portable
    /// The CPU's SHA instructions (CSHA256): about ten times the portable speed.
    case cpuInstructions

    /// The fastest compression this process can use: ``cpuInstructions`` when the CPU has them
    /// (asked once), else ``portable``. `SHIPYARD_SHA256=portable` in the environment forces
    /// the portable code (CI runs the differential tests both ways; benchmarks compare them).
    package static let fastest: SHA256Compression = {
        if let forced = getenv("SHIPYARD_SHA256"), String(cString: forced) == "portable" { return .portable }
        return hasCPUInstructions ? .cpuInstructions : .portable
    }()

    /// Every compression this machine can run: ``portable`` always, ``cpuInstructions`` when
    /// the CPU has them.
    package static var available: [SHA256Compression] {
        hasCPUInstructions ? [.portable, .cpuInstructions] : [.portable]
    }

    /// Whether CSHA256 is compiled in and the CPU reports its SHA instructions.
    package static var hasCPUInstructions: Bool {
        #if canImport(CSHA256)
        return shipyard_sha256_hardware() != 0
        #else
        return false
        #endif
    }

    package var description: String {
        switch self {
        case .portable: return "portable Swift"
        case .cpuInstructions: return "CPU SHA instructions"
        }
    }

    /// Compresses `blocks` (a whole number of 64-byte blocks) into `state` (H0…H7).
    func compress(_ blocks: UnsafeRawBufferPointer, into state: inout [UInt32]) {
        switch self {
        case .portable:
            Self.portableCompress(blocks, into: &state)
        case .cpuInstructions:
            #if canImport(CSHA256)
            guard let base = blocks.baseAddress else { return }
            state.withUnsafeMutableBufferPointer { words in
                // `words` holds the 8 words of H; CSHA256 reads and writes exactly those.
                shipyard_sha256_compress(
                    words.baseAddress, base.assumingMemoryBound(to: UInt8.self), blocks.count / SHA256Hasher.blockSize)
            }
            #else
            Self.portableCompress(blocks, into: &state)
            #endif
        }
    }

    /// K0…K63 of FIPS 180-4 §4.2.2.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The compression function (FIPS 180-4 §6.2.2) over `blocks`, a whole number of 64-byte
    /// blocks.
    private static func portableCompress(_ blocks: UnsafeRawBufferPointer, into state: inout [UInt32]) {
        @inline(__always) func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }
        roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var (h0, h1, h2, h3) = (state[0], state[1], state[2], state[3])
                var (h4, h5, h6, h7) = (state[4], state[5], state[6], state[7])
                var offset = 0
                while offset < blocks.count {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 4 * t, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] &>> 3)
                        let s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] &>> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                        let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ s0 &+ majority
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                    offset += SHA256Hasher.blockSize
                }
                state = [h0, h1, h2, h3, h4, h5, h6, h7]
            }
        }
    }
}
