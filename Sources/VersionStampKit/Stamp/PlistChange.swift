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

/// One string a stamp sets to a new value.
public struct PlistChange: Equatable, Sendable {
    /// Where the string is.
    public var keyPath: PlistKeyPath
    /// The value before the stamp.
    public var oldValue: String
    /// The value after it.
    public var newValue: String
    /// The line of the string in an XML plist.
    public var line: Int?

    /// A change of the string at `keyPath` from `oldValue` to `newValue`.
    public init(keyPath: PlistKeyPath, oldValue: String, newValue: String, line: Int? = nil) {
        self.keyPath = keyPath
        self.oldValue = oldValue
        self.newValue = newValue
        self.line = line
    }
}
