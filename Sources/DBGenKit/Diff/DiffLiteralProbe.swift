import Foundation

/// Test hooks into the diff's literal writer.
public enum DiffLiteralProbe {
    /// The exact power-of-two product SQL for `value` (the fallback when a decimal literal
    /// would not come back bit for bit).
    public static func exactProduct(_ value: Double) -> String {
        SQLLiteralWriter.powerOfTwoProduct(value)
    }
}
