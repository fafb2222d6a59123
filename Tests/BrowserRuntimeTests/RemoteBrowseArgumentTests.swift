import BrowserRuntime
import Foundation
import XCTest

final class RemoteBrowseArgumentTests: XCTestCase {
    private let none: (String) -> Bool = { _ in false }

    func testSchemesSSHAndScpStyle() {
        XCTAssertEqual(RemoteBrowseArgument.url("sftp://me@host:2222/photos/", localPathExists: none)?.absoluteString,
                       "sftp://me@host:2222/photos/")
        XCTAssertEqual(RemoteBrowseArgument.url("ssh://host/photos/", localPathExists: none)?.absoluteString, "sftp://host/photos/")
        XCTAssertEqual(RemoteBrowseArgument.url("me@nas:Pictures/2024", localPathExists: none)?.absoluteString,
                       "sftp://me@nas/~/Pictures/2024/")
        XCTAssertEqual(RemoteBrowseArgument.url("nas:/srv/photos", localPathExists: none)?.absoluteString, "sftp://nas/srv/photos/")
        XCTAssertEqual(RemoteBrowseArgument.url("nas:", localPathExists: none)?.absoluteString, "sftp://nas/~/")
    }

    func testAmbiguousArgumentsStayLocal() {
        XCTAssertNil(RemoteBrowseArgument.url("IMG:1.jpg", localPathExists: { $0 == "IMG:1.jpg" }), "an existing file wins")
        XCTAssertNil(RemoteBrowseArgument.url("photos/a:b", localPathExists: none), "a slash before the colon: a path")
        XCTAssertNil(RemoteBrowseArgument.url("-oProxyCommand=x:y", localPathExists: none), "never an option for ssh")
        XCTAssertNil(RemoteBrowseArgument.url("./photos", localPathExists: none))
        XCTAssertNotNil(RemoteBrowseArgument.problem("sftp://"))
    }
}
