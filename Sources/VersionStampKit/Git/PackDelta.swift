/// git's pack delta format: an object rebuilt from its base by copy and insert instructions.
enum PackDelta {
    /// The object `delta` describes over `base`; nil when the delta is malformed or was made
    /// for a base of another size.
    static func apply(_ delta: [UInt8], to base: [UInt8]) -> [UInt8]? {
        var position = 0
        guard let sourceSize = size(delta, &position), sourceSize == base.count,
              let targetSize = size(delta, &position) else { return nil }
        var ok = true
        let result = [UInt8](unsafeUninitializedCapacity: max(targetSize, 1)) { target, initialized in
            delta.withUnsafeBufferPointer { d in
                base.withUnsafeBufferPointer { b in
                    ok = run(d, from: position, base: b, into: target.baseAddress!, size: targetSize)
                }
            }
            initialized = ok ? targetSize : 0
        }
        return ok ? result : nil
    }

    /// Runs the copy and insert instructions from `start`, writing exactly `size` bytes.
    private static func run(_ d: UnsafeBufferPointer<UInt8>, from start: Int, base b: UnsafeBufferPointer<UInt8>,
                            into out: UnsafeMutablePointer<UInt8>, size: Int) -> Bool {
        var position = start, written = 0
        while position < d.count {
            let op = d[position]
            position += 1
            var length = 0
            if op & 0x80 != 0 {
                var offset = 0
                for bit in 0..<4 where op & (1 << bit) != 0 {
                    guard position < d.count else { return false }
                    offset |= Int(d[position]) << (8 * bit)
                    position += 1
                }
                for bit in 0..<3 where op & (0x10 << bit) != 0 {
                    guard position < d.count else { return false }
                    length |= Int(d[position]) << (8 * bit)
                    position += 1
                }
                if length == 0 { length = 0x10000 }
                guard offset + length <= b.count, written + length <= size else { return false }
                (out + written).update(from: b.baseAddress! + offset, count: length)
            } else if op != 0 {
                length = Int(op)
                guard position + length <= d.count, written + length <= size else { return false }
                (out + written).update(from: d.baseAddress! + position, count: length)
                position += length
            } else {
                return false  // reserved
            }
            written += length
        }
        return written == size
    }

    /// A little-endian base-128 size.
    private static func size(_ delta: [UInt8], _ position: inout Int) -> Int? {
        var value = 0, shift = 0
        while position < delta.count {
            let byte = delta[position]
            position += 1
            value |= Int(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift > 56 { return nil }
        }
        return nil
    }
}
