/// A growable byte buffer with a stable, manually managed allocation: the fields of one record
/// are appended to it and bound to SQLite with `SQLITE_STATIC`, so no field is copied twice.
///
/// Eight bytes past the capacity are allocated too, so that an 8-byte load at any byte of a
/// field stays inside the allocation (``ImportNumericAffinity`` reads numbers a word at a time).
///
/// It is a plain struct holding a raw pointer: the owner calls ``release()`` once.
struct ImportByteArena {
    /// The bytes allocated past the capacity.
    static let slack = 8

    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 64 * 1024) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity + Self.slack)
    }

    func release() {
        base.deallocate()
    }

    @inline(__always)
    mutating func reset() { count = 0 }

    /// Drops bytes at the end (`count` becomes `newCount`).
    @inline(__always)
    mutating func truncate(to newCount: Int) { count = newCount }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(minimum: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        if length == 0 { return }
        if count + length > capacity { grow(minimum: count + length) }
        (base + count).update(from: bytes, count: length)
        count += length
    }

    @inline(__always)
    subscript(index: Int) -> UInt8 { base[index] }

    private mutating func grow(minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity + Self.slack)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
