/// `Date.prototype.toISOString()` of JavaScript, which is how jsonwebtoken's `expiredAt` /
/// `date` fields reach the wire (e.g. `"2020-09-13T12:27:40.000Z"`).
enum JavaScriptDate {
    /// Largest magnitude JavaScript accepts for a time value, in milliseconds since 1970.
    static let maximumMilliseconds: Int64 = 8_640_000_000_000_000

    /// The ISO string for `milliseconds` since 1970-01-01T00:00:00Z, or nil where JavaScript has
    /// an invalid date (whose JSON form is `null`).
    static func isoString(milliseconds: Int64) -> String? {
        guard milliseconds.magnitude <= UInt64(maximumMilliseconds) else { return nil }
        let millisecondsPerDay: Int64 = 86_400_000
        var days = milliseconds / millisecondsPerDay
        var remainder = milliseconds % millisecondsPerDay
        if remainder < 0 {
            remainder += millisecondsPerDay
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = remainder / 3_600_000
        let minute = remainder / 60_000 % 60
        let second = remainder / 1000 % 60
        let millisecond = remainder % 1000

        let yearText: String
        if year >= 0 && year <= 9999 {
            yearText = padded(year, 4)
        } else {
            yearText = (year < 0 ? "-" : "+") + padded(year.magnitude, 6)
        }
        return "\(yearText)-\(padded(month, 2))-\(padded(day, 2))T\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2)).\(padded(millisecond, 3))Z"
    }

    private static func padded(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Proleptic Gregorian date of a day count (H. Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
