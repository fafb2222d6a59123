import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 15.2: `export`, `make-live`, `convert` and `extract` of a large generated movie, killed with SIGKILL
/// and with SIGTERM at 10 points along the movie's write (measured by its temporary file growing). After
/// every run the originals are byte-identical, no visible still lacks its movie and no visible file is
/// incomplete; after SIGTERM no temporary remains; after SIGKILL the next run into that folder removes the
/// debris. SIGINT and SIGHUP are checked once each. The full matrix (80 runs) takes 17-50 s.
final class InterruptedWritesTests: XCTestCase {
    static let points = 10
    var root: URL!

    override func setUpWithError() throws {
        root = try Fixtures.makeTemporaryDirectory("livegrid-interrupted")
    }
    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// A tool the test cannot do without: missing means skip, except under CI=true where it is a failure.
    func requireTool(_ name: String) throws -> String {
        try MissingRequirement.path(of: name, for: "cannot make the test's inputs")
    }

    func testKilledWritesLeaveOriginalsIntactNoHalfPairAndNoDebris() throws {
        let binary = try MissingRequirement.livegridBinary()
        let ffmpeg = try requireTool("ffmpeg")
        let inputs = try makeInputs(ffmpeg: ffmpeg, livegrid: binary)
        let originals = [inputs.photo, inputs.movie, inputs.liveStill, inputs.liveMovie, inputs.motionPhoto]
        let hashesBefore = try hashes(originals)

        let verbs: [(name: String, arguments: (String) -> [String])] = [
            ("export", { ["export", inputs.liveStill, "--to", $0] }),
            ("make-live", { ["make-live", inputs.photo, inputs.movie, "-o", $0] }),
            ("convert", { ["convert", "--to", "live", inputs.motionPhoto, "-o", $0] }),
            ("extract", { ["extract", inputs.liveStill, "-o", $0] }),
        ]
        var summary: [String] = []
        for verb in verbs {
            for signalNumber in [SIGKILL, SIGTERM] {
                let signalName = signalNumber == SIGKILL ? "SIGKILL" : "SIGTERM"
                let out = root.appendingPathComponent("\(verb.name)-\(signalName)").path
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
                var interrupted = 0
                for point in 1...Self.points {
                    let context = "\(verb.name), \(signalName) at \(point)/\(Self.points)"
                    let threshold = min(inputs.movieSize * UInt64(point) / UInt64(Self.points), inputs.movieSize - (1 << 20))
                    let run = try runAndKill(binary, verb.arguments(out), watching: out, signal: signalNumber,
                                             atTemporarySize: threshold)
                    if run.killed { interrupted += 1 }
                    let expectedStatus = 128 + signalNumber
                    XCTAssertTrue(run.status == expectedStatus || (!run.killed && run.status == 0),
                                  "\(context): exit status \(run.status)")
                    try assertNoHalfPairs(in: out, movieSize: inputs.movieSize, context)
                    let temporaries = try temporaryNames(in: out)
                    if signalNumber == SIGTERM {
                        XCTAssertEqual(temporaries, [], "\(context): temporaries left after SIGTERM")
                    } else {
                        // Only the killed process's own debris: the run before it was swept by this one.
                        XCTAssertTrue(temporaries.allSatisfy { $0.contains(".livegrid-\(run.pid)-") },
                                      "\(context): \(temporaries) (this run was pid \(run.pid))")
                    }
                }
                // A run to the end in the same folder: nothing of the killed runs remains.
                let final = try runAndKill(binary, verb.arguments(out), watching: out, signal: nil, atTemporarySize: 0)
                XCTAssertEqual(final.status, 0, "\(verb.name): the run after the \(signalName) runs failed")
                XCTAssertEqual(try temporaryNames(in: out), [], "\(verb.name): temporaries left after the next run")
                try assertNoHalfPairs(in: out, movieSize: inputs.movieSize, "\(verb.name) after \(signalName)")
                // Most points must really have interrupted a write, or the test proved nothing.
                XCTAssertGreaterThanOrEqual(interrupted, Self.points / 2,
                                            "\(verb.name) \(signalName): only \(interrupted) runs were interrupted mid-write")
                summary.append("\(verb.name) \(signalName): \(interrupted)/\(Self.points) interrupted")
                try FileManager.default.removeItem(atPath: out)
            }
        }
        // SIGINT (Ctrl-C) and SIGHUP (the terminal closed) clean up like SIGTERM.
        let out = root.appendingPathComponent("make-live-SIGINT-SIGHUP").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        for signalNumber in [SIGINT, SIGHUP] {
            let run = try runAndKill(binary, verbs[1].arguments(out), watching: out, signal: signalNumber,
                                     atTemporarySize: inputs.movieSize / 2)
            XCTAssertTrue(run.killed, "make-live finished before half its movie was written")
            XCTAssertEqual(run.status, 128 + signalNumber)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "signal \(signalNumber)")
        }
        XCTAssertEqual(try hashes(originals), hashesBefore, "an original changed")
        for folder in Set(originals.map { ($0 as NSString).deletingLastPathComponent }) {
            XCTAssertEqual(try temporaryNames(in: folder), [], "temporaries beside the originals")
        }
        print("InterruptedWritesTests: " + summary.joined(separator: "; "))
    }

    // MARK: inputs

    struct Inputs {
        var photo: String, movie: String, liveStill: String, liveMovie: String, motionPhoto: String
        /// The size of the Live Photo movie every verb writes (within a few KB).
        var movieSize: UInt64
    }

    /// A ~170 MB H.264 movie (lossless noise: incompressible, quick to encode), a photo, the Live Photo
    /// `make-live` makes of them and the Motion Photo `convert --to motion` makes of that.
    func makeInputs(ffmpeg: String, livegrid: String) throws -> Inputs {
        let originals = root.appendingPathComponent("originals")
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: false)
        let photo = originals.appendingPathComponent("photo.jpg").path
        let movie = originals.appendingPathComponent("big.mov").path
        let encode = try ExternalTool.runProgram(ffmpeg, [
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "4",
            "-vf", "noise=alls=60:allf=t+u", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
            "-pix_fmt", "yuv420p", "-y", movie])
        XCTAssertEqual(encode.status, 0, encode.err)
        let still = try ExternalTool.runProgram(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x480",
                                                         "-frames:v", "1", "-y", photo])
        XCTAssertEqual(still.status, 0, still.err)
        let library = originals.appendingPathComponent("library").path
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: false)
        let made = try ExternalTool.runProgram(livegrid, ["make-live", photo, movie, "-o", library])
        XCTAssertEqual(made.status, 0, made.err)
        let liveStill = (library as NSString).appendingPathComponent("photo-live.JPG")
        let liveMovie = (library as NSString).appendingPathComponent("photo-live.MOV")
        let motionFolder = originals.appendingPathComponent("motion").path
        try FileManager.default.createDirectory(atPath: motionFolder, withIntermediateDirectories: false)
        let converted = try ExternalTool.runProgram(livegrid, ["convert", "--to", "motion", liveStill, "-o", motionFolder])
        XCTAssertEqual(converted.status, 0, converted.err)
        let motionPhoto = (motionFolder as NSString).appendingPathComponent("photo-live-motion.jpg")
        let movieSize = try XCTUnwrap(fileSize(liveMovie))
        XCTAssertGreaterThan(movieSize, 100_000_000, "the generated movie is too small to interrupt")
        XCTAssertNotNil(fileSize(motionPhoto))
        return Inputs(photo: photo, movie: movie, liveStill: liveStill, liveMovie: liveMovie, motionPhoto: motionPhoto,
                      movieSize: movieSize)
    }

    // MARK: running and killing

    struct Run { var pid: pid_t; var status: Int32; var killed: Bool }

    /// Runs livegrid; once a temporary movie of this process in `folder` holds `size` bytes, sends `signal`.
    /// Polls the folder (condition-based; the deadline is only a guard against a hung process).
    func runAndKill(_ binary: String, _ arguments: [String], watching folder: String, signal: Int32?,
                    atTemporarySize size: UInt64) throws -> Run {
        // Temporaries already there are a killed run's: this run's movie is the new one.
        let before = Set(try temporaryNames(in: folder))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let log = root.appendingPathComponent("stderr.log").path
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ToolRunner.Failure(description: "cannot run \(binary): error \(spawned)") }

        var killed = false
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(120)
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                XCTFail("livegrid \(arguments.first ?? "") did not finish within 120 s")
            }
            if let signal, !killed, movieTemporarySize(in: folder, ignoring: before) >= size {
                kill(pid, signal)
                killed = true
            }
            usleep(200)
        }
        let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Run(pid: pid, status: exitCode, killed: killed)
    }

    /// Size of this run's temporary movie in `folder` (0 while there is none): a livegrid temporary of a
    /// movie that was not there before the run.
    func movieTemporarySize(in folder: String, ignoring before: Set<String>) -> UInt64 {
        guard let names = try? temporaryNames(in: folder) else { return 0 }
        for name in names where !before.contains(name) && name.uppercased().contains(".MOV.LIVEGRID-") {
            if let size = fileSize((folder as NSString).appendingPathComponent(name)) { return size }
        }
        return 0
    }

    // MARK: checks

    func temporaryNames(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".livegrid-") && $0.hasSuffix(".tmp") }.sorted()
    }

    /// Every visible still has a movie of the same stem beside it, and every visible movie is whole.
    func assertNoHalfPairs(in folder: String, movieSize: UInt64, _ context: String) throws {
        let visible = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        let stems = { (extensions: Set<String>) in
            Set(visible.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .map { ($0 as NSString).deletingPathExtension })
        }
        let stills = stems(["jpg", "heic"]), movies = stems(["mov", "mp4"])
        XCTAssertEqual(stills.subtracting(movies), [], "\(context): stills without their movie in \(visible.sorted())")
        for name in visible where ["mov", "mp4"].contains((name as NSString).pathExtension.lowercased()) {
            let size = fileSize((folder as NSString).appendingPathComponent(name)) ?? 0
            // Each verb writes the same movie give or take its metadata.
            XCTAssertLessThan(abs(Int64(size) - Int64(movieSize)), 1 << 16, "\(context): \(name) has \(size) bytes")
        }
    }

    func fileSize(_ path: String) -> UInt64? {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_size) : nil
    }

    func hashes(_ paths: [String]) throws -> String {
        let sum = try requireTool("sha256sum")
        let result = try ExternalTool.runProgram(sum, paths)
        XCTAssertEqual(result.status, 0, result.err)
        return result.out
    }
}
