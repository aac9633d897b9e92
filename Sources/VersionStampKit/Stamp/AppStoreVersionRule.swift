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

/// The App Store's rule for `CFBundleVersion` and `CFBundleShortVersionString`: one to three
/// period-separated non-negative integers, at most 18 characters (`42`, `1.2`, `2024.11.3`).
public enum AppStoreVersionRule {
    /// The keys the rule applies to (in the root dictionary of an Info.plist).
    public static let keys: Set<String> = ["CFBundleVersion", "CFBundleShortVersionString"]

    /// The rule, as quoted in error messages.
    public static let description =
        "one to three period-separated non-negative integers (such as 42, 1.2 or 1.2.3), at most 18 characters"

    /// True when `value` follows the rule.
    public static func isValid(_ value: String) -> Bool {
        guard value.utf8.count <= 18 else { return false }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
    }

    /// nil when `value` may be stored under `key`, otherwise the message explaining why not.
    public static func violation(key: String, value: String) -> String? {
        guard keys.contains(key), !isValid(value) else { return nil }
        return "\(key) \"\(value)\" does not follow the App Store rule: \(description)"
    }
}
