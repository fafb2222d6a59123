import Foundation
import TestSupport
import XCTest

/// Runs the built `livegrid` binary as a script would, with extra environment variables; skips the test
/// when the binary is not built next to the tests.
enum LivegridCommand {
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws
        -> (status: Int32, out: String, err: String)
    {
        let binary = try MissingRequirement.livegridBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
