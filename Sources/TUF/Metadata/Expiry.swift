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

/// TUF's `expires`: `YYYY-MM-DDTHH:MM:SSZ` in UTC, exactly (as python-tuf reads it).
public enum Expiry {
    /// The date an `expires` string names, or nil if it is not of that form.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            year >= 1, (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...monthDays[month - 1]).contains(day) else { return nil }
        return calendar.date(
            from: DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second
            ))
    }

    /// The `expires` string of a date (whole seconds, UTC).
    public static func format(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        func digits(_ value: Int?, _ count: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return "\(digits(parts.year, 4))-\(digits(parts.month, 2))-\(digits(parts.day, 2))T"
            + "\(digits(parts.hour, 2)):\(digits(parts.minute, 2)):\(digits(parts.second, 2))Z"
    }

    /// The proleptic Gregorian calendar in UTC.
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        // FoundationEssentials knows no zone by name without ICU: UTC is the zero offset (never
        // nil: a zero offset is in range).
        if let utc = TimeZone(secondsFromGMT: 0) { calendar.timeZone = utc }
        return calendar
    }()
}
