/// Where the fields of a batch's records are in its ``ImportByteArena``: a start and a length
/// (-1 for NULL) per field, `columnCount` per record, in manually managed memory like the
/// arena's, so the parser's inner loop appends without an array's checks.
///
/// It is a plain struct holding raw pointers: the owner calls ``release()`` once.
struct ImportFieldList {
    private(set) var starts: UnsafeMutablePointer<Int>
    private(set) var lengths: UnsafeMutablePointer<Int>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        starts = .allocate(capacity: self.capacity)
        lengths = .allocate(capacity: self.capacity)
    }

    func release() {
        starts.deallocate()
        lengths.deallocate()
    }

    /// Makes room for `more` fields, so that that many appends need no check.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(minimum: count + more) }
    }

    @inline(__always)
    mutating func append(start: Int, length: Int) {
        if count == capacity { grow(minimum: count + 1) }
        appendReserved(start: start, length: length)
    }

    /// Appends within the room ``reserve(_:)`` made.
    @inline(__always)
    mutating func appendReserved(start: Int, length: Int) {
        starts[count] = start
        lengths[count] = length
        count += 1
    }

    /// Forgets the fields from `newCount` on.
    @inline(__always)
    mutating func truncate(to newCount: Int) { count = newCount }

    private mutating func grow(minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let newStarts = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        let newLengths = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        newStarts.update(from: starts, count: count)
        newLengths.update(from: lengths, count: count)
        release()
        starts = newStarts
        lengths = newLengths
        capacity = newCapacity
    }
}
