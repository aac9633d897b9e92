import EssentialsSupport
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

/// A duration given to a feed command (`--timestamp-expires`, `--root-expires`, ...): a whole
/// number of seconds, or of minutes, hours or days with the suffix `m`, `h` or `d` (`s` for
/// seconds is allowed too). At most ten years, and more than 0.
public enum FeedDuration {
    /// The seconds `text` stands for.
    ///
    /// - Throws: ``FeedPublisherError`` naming `option`: not a duration, 0, or more than ten years.
    public static func seconds(_ text: String, option: String) throws -> TimeInterval {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var digits = Substring(text)
        var unit: Int64 = 1
        if let last = text.last, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw FeedPublisherError(
                option,
                "\"\(text)\" is not a duration (a whole number of seconds, or of minutes, hours or days: 90m, 48h, 365d)"
            )
        }
        // Past ten years, the exact number matters no more than its size.
        let value = Int64(digits) ?? Int64.max
        let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
        let duration = overflow ? TimeInterval(Int64.max) : TimeInterval(seconds)
        try check(duration, option: option, as: text)
        return duration
    }

    /// Checks a lifetime: more than 0, at most ``FeedClock/longestLifetime``.
    ///
    /// - Throws: ``FeedPublisherError`` naming `option`.
    static func check(_ seconds: TimeInterval, option: String, as text: String? = nil) throws {
        let shown = text.map { "\"\($0)\"" } ?? PrintfFormat.string("%.0f seconds", seconds)
        guard seconds > 0 else { throw FeedPublisherError(option, "\(shown) is not a duration above 0") }
        guard seconds <= FeedClock.longestLifetime else {
            throw FeedPublisherError(
                option,
                "\(shown) is more than ten years (3650d, \(Int64(FeedClock.longestLifetime)) seconds): "
                    + "a document that lives longer gets a date no TUF client reads, or one nobody renews; nothing written"
            )
        }
    }
}
