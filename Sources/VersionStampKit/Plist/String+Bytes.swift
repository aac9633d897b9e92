extension String {
    /// Replaces every occurrence of `target` by `replacement`, comparing UTF-8 bytes exactly
    /// (no Unicode normalization, no locale), as a byte-preserving editor must.
    func replacingBytes(of target: String, with replacement: String) -> String {
        let bytes = Array(utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + needle.count <= bytes.count, bytes[index] == needle[0],
               bytes[index..<(index + needle.count)].elementsEqual(needle) {
                result.append(contentsOf: replacement.utf8)
                index += needle.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// True when `target` occurs in the string, comparing UTF-8 bytes exactly.
    func containsBytes(of target: String) -> Bool {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return false }
        var utf8 = self.utf8[...]
        while let start = utf8.firstIndex(of: first) {
            if utf8[start...].starts(with: needle) { return true }
            utf8 = utf8[utf8.index(after: start)...]
        }
        return false
    }
}
