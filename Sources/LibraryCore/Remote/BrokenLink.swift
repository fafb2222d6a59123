import Foundation

/// Why a symbolic link on an SFTP server gives no file (issue 32.9: it used to be called "damaged file").
public enum BrokenLink: Sendable, Equatable {
    /// The link (or the last link of its chain) names nothing.
    case missingTarget
    /// Following the links comes back to one already followed.
    case loop
    /// The server cannot open what the link leads to and the listing cannot say why: OpenSSH answers a loop
    /// (ELOOP) with the same "no such file" as a missing target.
    case unreachable

    /// Without the name, for lists that print it first ("IMG_1.JPG: a link to …").
    public var sentence: String {
        switch self {
        case .missingTarget: return "a link to a file that does not exist on the server"
        case .loop: return "a link that loops (following it leads back to itself)"
        case .unreachable: return "a link to a file the server cannot find (it does not exist, or the links loop)"
        }
    }
}
