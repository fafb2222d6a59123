/// How much of a remote listing is kept.
public enum RemoteListingLimits {
    /// Entries a listing keeps by default (`remote.max_entries`, `--max-entries`): far above any real folder,
    /// far below what would exhaust memory. (`RemoteListingParser.defaultMaxEntries`; here for the config.)
    public static let defaultMaxEntries = 200_000
}
