import BrowserCore
import BrowserRuntime
import Concurrent
import Foundation
import LibraryCore
import LibrarySources
import Library
import LivePairing

/// `livegrid export s3://bucket/prefix/IMG_1.JPG --to DIR` (any remote kind): the item is found by scanning
/// its folder (so a Live Photo's movie comes with its still), its files are downloaded whole into a private
/// temporary folder, and the export then runs on those local copies exactly as for local files (a pair stays a
/// pair, `--as still` and `--strip-location` work). The temporary folder is removed when the command ends.
struct RemoteExportStaging {
    let directory: URL
    /// Local paths standing for the arguments, in order.
    let paths: [String]
    /// Ratings and flags kept in the library index for the staged items, by the file name of each item's
    /// primary file in `directory` (written beside the exported copies: issue 31.5).
    var ratings: [String: TriageState] = [:]

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func isRemote(_ argument: String) -> Bool {
        argument.contains("://") && RemoteBrowseArgument.url(argument, localPathExists: { _ in false }) != nil
    }

    static func stage(_ arguments: [String], s3: S3Options, triage: TriageStore) throws -> RemoteExportStaging {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-export-\(getpid())-\(UUID().uuidString)")
        // mkdir, not FileManager: its error printed as "Error Domain=NSCocoaErrorDomain Code=…" (issue 27.6).
        guard mkdir(directory.path, 0o777) == 0 else {
            let reason = String(cString: strerror(errno))
            throw Failure(description: "cannot make the folder for the downloaded copies \(directory.path): \(reason)")
        }
        var paths: [String] = []
        var ratings: [String: TriageState] = [:]
        do {
            for argument in arguments {
                guard isRemote(argument), let url = RemoteBrowseArgument.url(argument) else { paths.append(argument); continue }
                let staged = try stageOne(url, s3: s3, into: directory, triage: triage)
                paths.append(staged.path)
                if let rating = staged.rating { ratings[rating.name] = rating.state }
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)   // try?: nothing of it is kept on failure; a leftover is only temporary space
            throw error
        }
        return RemoteExportStaging(directory: directory, paths: paths, ratings: ratings)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)   // try?: temporary copies; a leftover costs only temporary space
    }

    /// Downloads the files of the item `url` names (its still and movie) and returns the local path of `url`'s.
    private static func stageOne(_ url: URL, s3: S3Options, into directory: URL,
                                 triage: TriageStore) throws -> (path: String, rating: (name: String, state: TriageState)?) {
        let name = url.lastPathComponent
        let folder = url.deletingLastPathComponent()
        let client = RemoteHTTPClient(configuration: try RemoteCommandSupport.configuration(interactive: true, for: url, s3: s3))
        // Connections closed before the command goes on (and may exit on a failure): a worker still closing an
        // SSH connection while the process exits crashed in OpenSSL's exit handlers.
        defer { client.invalidate() }
        try RemoteCommandSupport.prepare(folder, client: client)
        let scan = try RemoteCommandSupport.scan(folder, client: client, recursive: false)
        let prefix = BrowserState.displayString(RemoteEntryValidator.directoryURL(folder))
        guard let item = scan.items.first(where: { $0.files.contains { $0.path == prefix + name } }) else {
            throw Failure(description: "\(BrowserState.displayString(url)): no photo or movie of that name in its folder")
        }
        guard let source = LibrarySourceTable.source(for: folder, client: client) else {
            throw RemoteError.unsupportedURL(url.absoluteString)
        }
        for file in item.files {
            let fileName = String(file.path.dropFirst(prefix.count))
            guard let fileURL = RemoteEntryValidator.url(forName: fileName, isDirectory: false, in: folder) else { continue }
            try download(fileURL, with: source, to: directory.appendingPathComponent(fileName))
        }
        let state = triage.read(remote: TriageStore.remoteSubjects(ofScanned: [item]))[item.id]
        let primaryName = String(item.primary.path.dropFirst(prefix.count))
        return (directory.appendingPathComponent(name).path, state.map { (primaryName, $0) })
    }

    private static func download(_ url: URL, with source: any LibrarySource, to destination: URL) throws {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: destination.path) else {
            throw Failure(description: "cannot write the temporary copy \(destination.path)")
        }
        defer { try? handle.close() }   // try?: the copy is complete or removed with its folder either way
        let outcome = Locked<RemoteError??>(nil)
        let done = DispatchSemaphore(value: 0)
        let transfer = try source.fetchWhole(url, from: 0, validator: nil, handler: RemoteTransferHandler(
            onResponse: { $0.statusCode == 200 ? nil : .httpStatus($0.statusCode, url: BrowserState.displayString(url)) },
            onData: { data in
                // write(2), not FileHandle.write: its error printed as "Error Domain=NSPOSIXErrorDomain …".
                Self.writeAll(data, to: handle.fileDescriptor).map {
                    .cache("cannot write the copy \(destination.path): \(String(cString: strerror($0)))")
                }
            },
            onComplete: { error in outcome.set(.some(error)); done.signal() }))
        done.wait()
        _ = transfer
        if case .some(.some(let error)) = outcome.value { throw error }
    }

    /// Writes all of `data`; the errno of a failed write, nil when all of it is written.
    private static func writeAll(_ data: Data, to fd: Int32) -> Int32? {
        data.withUnsafeBytes { raw -> Int32? in
            guard let base = raw.baseAddress else { return nil }
            var done = 0
            while done < raw.count {
                let written = write(fd, base + done, raw.count - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += written
            }
            return nil
        }
    }
}
