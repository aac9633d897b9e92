/// Calendar days of Unix times, in UTC: what `{date}` and the generated files' `date` hold.
enum UTCDate {
    /// `YYYYMMDD` of Unix time `seconds`, in UTC (proleptic Gregorian calendar).
    static func day(of seconds: Int64) -> String {
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // Civil date from days since 1970-01-01 (proleptic Gregorian calendar).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(year, 4) + pad(month, 2) + pad(day, 2)
    }
}
