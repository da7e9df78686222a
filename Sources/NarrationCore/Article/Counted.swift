/// A count and its noun as a sentence says them: "1 chapter", "3 chapters", "1 paragraph".
public enum Counted {
    /// `count` and `noun`, the noun in the plural (`plural`, else the noun and "s") unless the count is 1.
    public static func phrase(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
