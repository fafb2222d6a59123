import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LibraryCore
import LibrarySources
import XCTest

/// `RemoteError` lives in LibraryCore (no curl) so the reducer can carry it; its sentences must read as they did
/// when LibrarySources made them with FoundationNetworking and the scheme table.
final class RemoteErrorTextTests: XCTestCase {
    func testStatusPhrasesAreFoundationsForEveryCode() {
        for code in 0...999 {
            XCTAssertEqual(RemoteError.httpStatus(code, url: "u").description,
                           "HTTP \(code) \(HTTPURLResponse.localizedString(forStatusCode: code)) for u")
        }
    }

    func testUnsupportedURLNamesTheSchemesOfTheTable() {
        let schemes = LibrarySourceTable.remoteSchemes.sorted().joined(separator: ", ")
        XCTAssertTrue(schemes.contains("sftp") && schemes.contains("https"), schemes)
        XCTAssertEqual(RemoteError.unsupportedURL("gopher://h/x").description, "unsupported URL gopher://h/x (\(schemes) only)")
    }
}
