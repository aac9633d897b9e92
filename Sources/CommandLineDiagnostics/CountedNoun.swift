/// `count` and the noun, singular for one: `1 patch`, `2 patches`, `0 files`, as every line the
/// executables print says a count (never `1 patches`). `plural` defaults to `singular` + "s".
package func counted(_ count: some BinaryInteger, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
