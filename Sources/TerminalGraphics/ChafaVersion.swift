import CChafa

public enum ChafaLibraryVersion {
    /// chafa 1.12 has no runtime version call: the header's version is what we compiled against.
    public static var version: String { "\(CHAFA_MAJOR_VERSION).\(CHAFA_MINOR_VERSION).\(CHAFA_MICRO_VERSION)" }
    /// Referencing a function proves libchafa is linked.
    public static var linked: Bool { chafa_get_n_actual_threads() > 0 }
}
