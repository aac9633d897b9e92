extension RevisionRequirements {
    /// `{tag}` and `{distance}` (and what is read from the tag, such as a version number)
    /// without the `{describe}` string: the nearest tag and the distance to it, but neither
    /// the abbreviated id nor the dirty check (a stat of every tracked file) that only the
    /// string needs. `.describe` includes it.
    public static let nearestTag = RevisionRequirements(rawValue: 1 << 7)
}
