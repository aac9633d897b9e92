/// git's pack delta format: an object rebuilt from its base by copy and insert instructions.
enum PackDelta {
    /// The object `delta` describes over `base`; nil when the delta is malformed or was made
    /// for a base of another size.
    static func apply(_ delta: [UInt8], to base: [UInt8]) -> [UInt8]? {
        var position = 0
        guard let sourceSize = size(delta, &position), sourceSize == base.count,
              let targetSize = size(delta, &position) else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(targetSize)
        while position < delta.count {
            let op = delta[position]
            position += 1
            if op & 0x80 != 0 {
                var offset = 0, length = 0
                for bit in 0..<4 where op & (1 << bit) != 0 {
                    guard position < delta.count else { return nil }
                    offset |= Int(delta[position]) << (8 * bit)
                    position += 1
                }
                for bit in 0..<3 where op & (0x10 << bit) != 0 {
                    guard position < delta.count else { return nil }
                    length |= Int(delta[position]) << (8 * bit)
                    position += 1
                }
                if length == 0 { length = 0x10000 }
                guard offset + length <= base.count else { return nil }
                result.append(contentsOf: base[offset..<(offset + length)])
            } else if op != 0 {
                let length = Int(op)
                guard position + length <= delta.count else { return nil }
                result.append(contentsOf: delta[position..<(position + length)])
                position += length
            } else {
                return nil  // reserved
            }
        }
        return result.count == targetSize ? result : nil
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
