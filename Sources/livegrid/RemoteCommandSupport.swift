import BrowserCore
import BrowserRuntime
import Concurrent
import Foundation
import Library
import LibraryCore
import LibrarySources
import LivePairing

/// What `browse` and `scan` share for remote URLs: the client's settings (the one place that reads the
/// environment for them), logging in before any UI, and a remote scan as a `LibraryScan`.
enum RemoteCommandSupport {
    /// `LIVEGRID_SSH_CONFIG`: an OpenSSH client configuration file used instead of `~/.ssh/config` (`ssh -F`);
    /// `HOME` expands `~` in identity paths. With `interactive`, passphrases and passwords are asked on the
    /// terminal (/dev/tty, no echo).
    /// For an `s3://` URL, the S3 settings as the AWS tools read them (`S3Settings.resolve`, with the command
    /// line's `s3` options on top); a settings problem throws its sentence.
    static func configuration(interactive: Bool, for url: URL? = nil, s3: S3Options? = nil) throws -> RemoteHTTPConfiguration {
        var configuration = RemoteHTTPConfiguration()
        let environment = LaunchEnvironment.current
        if let url, LibrarySourceTable.kind(of: url) is S3Source.Type {
            do {
                configuration.s3 = try S3Settings.resolve(environment: environment.variables, home: environment.home,
                                                          endpoint: s3?.endpoint, profile: s3?.profile, region: s3?.region,
                                                          unsigned: s3?.noSignRequest ?? false)
            } catch let problem as S3SettingsError {
                throw RemoteError.service(problem.description, transient: false)
            }
            // The AWS tools' own variable for a private certificate authority (a self-hosted store's).
            if let bundle = environment.variables["AWS_CA_BUNDLE"], !bundle.isEmpty { configuration.caBundlePath = bundle }
        }
        configuration.netrc = Netrc.load(environment: environment.variables)
        if let file = environment.sshConfigFile { configuration.ssh.openSSHConfigFile = file }
        if let home = environment.home { configuration.ssh.homeDirectory = home }
        configuration.ssh.localUser = environment.variables["USER"]
        configuration.ssh.agentSocket = environment.variables["SSH_AUTH_SOCK"]
        if interactive { configuration.ssh.askSecret = { TerminalSecretPrompt.ask($0) } }
        return configuration
    }

    /// Connects and logs in (SFTP) before the browser takes the screen, so a refused host key or login is a
    /// plain message on the terminal, and prompts happen while the terminal is still a terminal.
    static func prepare(_ url: URL, client: RemoteHTTPClient) throws {
        let outcome = wait { try await client.prepare(url) }
        if case .failure(let error) = outcome { throw error }
    }

    /// Header probes `scan` runs at once: bounded (8 SSH logins at once stay under OpenSSH's default
    /// MaxStartups of 10), one per SFTP worker of the client, or on HTTP keep-alive connections.
    static let scanProbeConcurrency = 8

    /// Lists, probes and pairs a remote directory (and its subdirectories with `recursive`) like a local scan.
    /// File paths start with the URL as shown (no password), then the names as listed (decoded), as local
    /// paths start with the scanned directory.
    /// `probeMemory`: header probes kept in the library index under each file's URL and listed validator, so a
    /// second scan reads only files whose size or ETag changed (nil: `--no-index`).
    static func scan(_ url: URL, client: RemoteHTTPClient, recursive: Bool,
                     maxEntries: Int = RemoteListingParser.defaultMaxEntries,
                     probeMemory: RemoteProbeMemory? = nil) throws -> LibraryScan {
        let downloads = DownloadManager.Configuration(
            cacheRoot: DownloadCache.defaultRoot(environment: LaunchEnvironment.current.variables))
        let manager = DownloadManager(client: client, configuration: downloads)
        let root = RemoteLibrary(url: url, client: client, downloads: manager)
        root.maxEntries = maxEntries
        root.probeConcurrency = scanProbeConcurrency
        root.probeMemory = probeMemory
        let rootText = BrowserState.displayString(root.url)
        if recursive, let tree = try wait({ try await client.listTree(root.url, maxEntries: maxEntries) }).get() {
            return scan(consume tree, root: root, rootText: rootText, url: url, maxEntries: maxEntries)
        }
        var items: [LibraryItem] = []
        var warnings: [String] = []
        // LIVEGRID_TRACE: per folder, the header probes that started while its listing still arrived.
        let trace = EventTrace(environment: LaunchEnvironment.current.variables)
        // Files whose facts came from the library index (`scan --stats`: "the rest from the index").
        let remembered = Locked(0)
        var pending = [(root, "")]
        while let (library, prefix) = pending.popLast() {
            let rejected = Locked<[RejectedRemoteEntry]>([])
            let truncations = Locked<[String]>([])
            let token = library.addObserver { event in
                if case .listed(_, _, let refused) = event { rejected.set(refused) }
                if case .listingTruncated(let kept, let limit) = event {
                    truncations.withLockedValue { $0.append(BrowserState.truncationMessage(kept: kept, limit: limit)) }
                }
            }
            let outcome = wait { try await library.load() }
            library.removeObserver(token)
            remembered.withLockedValue { $0 += library.probesRemembered }
            trace?.log("remote-scan-listed probes-while-listing=\(library.probesWhileListing) \(BrowserState.displayString(library.url))")
            switch outcome {
            case .failure(let error) where library === root: throw error
            case .failure(let error):
                warnings.append("\(BrowserState.displayString(library.url)): \(error)")
            case .success(let remoteItems):
                warnings += truncations.value.map { "\(BrowserState.displayString(library.url)): \($0)" }
                warnings += rejected.value.map { "\(BrowserState.displayString(library.url)): skipped \($0)" }
                items += remoteItems.map { withPaths($0, prefix: rootText + prefix) }
                if recursive, prefix.split(separator: "/").count < 32 {
                    pending += library.subdirectories.reversed().map { (library.subdirectory($0), prefix + $0.name + "/") }
                }
            }
        }
        let files = items.reduce(0) { $0 + ($1.still == nil ? 0 : 1) + ($1.movie == nil ? 0 : 1) }
        return LibraryScan(root: BrowserState.displayString(url), items: items, warnings: warnings,
                           bytesRead: root.probeBytes, reads: root.probeRequests,
                           probedFiles: max(0, files - remembered.value))
    }

    /// A recursive scan of a kind listed in one walk (S3): each folder of the tree probed and paired as its own
    /// library (a still pairs with a movie in its own folder only, as folder by folder), none listed again.
    /// Each folder's listing and library are let go once its items are taken (a tree of 200,000 keys held its
    /// listing, and the root library its listing and items, to the end beside the scan's own items).
    private static func scan(_ tree: consuming RemoteListingTree, root: RemoteLibrary, rootText: String, url: URL,
                             maxEntries: Int) -> LibraryScan {
        var items: [LibraryItem] = []
        var warnings: [String] = []
        var bytesRead: UInt64 = 0
        var reads = 0
        var remembered = 0
        let complete = !tree.truncated, truncatedCount = tree.entryCount
        var folders = tree.folders
        _ = consume tree
        for index in folders.indices {
            let folder = folders[index]
            folders[index].listing = RemoteListing(baseURL: folder.listing.baseURL, format: folder.listing.format)
            let library = root.subdirectory(RemoteEntry(name: folder.path, url: folder.listing.baseURL, isDirectory: true))
            let remoteItems = wait { await library.load(listed: folder.listing, complete: complete) }
            warnings += folder.listing.rejected.map { "\(BrowserState.displayString(library.url)): skipped \($0)" }
            if case .success(let found) = remoteItems { items += found.map { withPaths($0, prefix: rootText + folder.path) } }
            bytesRead += library.probeBytes
            reads += library.probeRequests
            remembered += library.probesRemembered
        }
        if !complete {
            warnings.append("\(rootText): \(BrowserState.truncationMessage(kept: truncatedCount, limit: maxEntries))")
        }
        let files = items.reduce(0) { $0 + ($1.still == nil ? 0 : 1) + ($1.movie == nil ? 0 : 1) }
        return LibraryScan(root: BrowserState.displayString(url), items: items, warnings: warnings,
                           bytesRead: bytesRead, reads: reads, probedFiles: max(0, files - remembered))
    }

    private static func withPaths(_ remote: RemoteItem, prefix: String) -> LibraryItem {
        var item = remote.item
        if let name = item.still?.path { item.still?.path = prefix + name }
        if let name = item.movie?.path { item.movie?.path = prefix + name }
        return item
    }

    /// Runs async work to completion from a synchronous command.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let outcome = Locked<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { outcome.set(.success(try await work())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return outcome.value ?? .failure(RemoteError.cancelled)
    }
}

/// A passphrase or password read from the controlling terminal with echo off. No terminal (a script, a test
/// under `setsid`): nil at once, never a hang.
///
/// The terminal is in non-canonical mode without echo or signals while the user types, so every key is seen
/// here: Enter (or Ctrl-D) ends the answer, Backspace and Ctrl-U edit it, and Ctrl-C restores the terminal and
/// ends livegrid (exit status 130, as a shell reports an interrupt) instead of leaving the terminal silent.
/// A SIGTERM/SIGHUP arriving meanwhile restores it too (`PromptTerminalGuard`).
enum TerminalSecretPrompt {
    static func ask(_ prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        quiet.c_iflag |= tcflag_t(ICRNL)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        send(fd, prompt)
        PromptTerminalGuard.arm(fd: fd, saved: saved)
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { PromptTerminalGuard.disarm(); return nil }
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            PromptTerminalGuard.disarm()
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096 {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            guard n == 1 else {
                // 0 or EIO: the terminal went away (Ctrl-D is a byte here, not an end of input). Nobody can finish
                // the answer: what was typed so far is not a password. Restore what can be restored and end
                // (issue 32.1): going on would log in with half a password or wait on a dead tty.
                _ = tcsetattr(fd, TCSANOW, &saved)
                PromptTerminalGuard.disarm()
                HumanOutput.error("the terminal went away at the prompt")
                exit(1)
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x04:   // Enter, Ctrl-D
                send(fd, "\n")
                return String(decoding: bytes, as: UTF8.self)
            case 0x03:   // Ctrl-C
                _ = tcsetattr(fd, TCSAFLUSH, &saved)
                send(fd, "\n")
                HumanOutput.error("cancelled at the prompt")
                exit(130)
            case 0x7F, 0x08:   // Backspace: one character (its UTF-8 continuation bytes too)
                while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            case 0x15:   // Ctrl-U: start again
                bytes.removeAll()
            case ..<0x20:   // other control keys (Ctrl-Z, Esc …) are not part of a password
                break
            default:
                bytes.append(byte)
            }
        }
        send(fd, "\n")
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// The prompt and line ends go to the terminal itself (not stdout, which may be a pipe of JSON).
    private static func send(_ fd: Int32, _ text: String) {
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }
}

/// Restores the terminal if livegrid is ended by a signal while the prompt has echo off. Only
/// async-signal-safe calls in the handler (tcsetattr, signal, raise) on values stored before it is installed.
enum PromptTerminalGuard {
    // Not `Locked`: a signal handler reads them and cannot take a lock. The descriptor is an atomic word; the
    // saved modes (a C struct, too wide for an atomic) are written only before the handlers are installed.
    private static let fd = SignalSafeDescriptor(-1)
    nonisolated(unsafe) private static var saved = termios()
    private static let signals = [SIGTERM, SIGHUP, SIGQUIT]

    static func arm(fd descriptor: Int32, saved settings: termios) {
        saved = settings
        fd.store(descriptor)
        for number in signals {
            signal(number) { received in
                let fd = PromptTerminalGuard.fd.load()
                if fd >= 0 { _ = tcsetattr(fd, TCSANOW, &PromptTerminalGuard.saved) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    static func disarm() {
        for number in signals { signal(number, SIG_DFL) }
        fd.store(-1)
    }
}
