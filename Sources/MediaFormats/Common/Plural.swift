/// "1 item", "2 items", "0 items": counts in sentences read as English ("1 items" did not).
public enum Plural {
    /// `count` followed by `singular`, or by `plural` (default: `singular` + "s") when count is not 1.
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + word(count, singular, plural: plural)
    }

    /// The word alone, for sentences that place the number elsewhere.
    public static func word(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        count == 1 ? singular : plural ?? singular + "s"
    }
}
