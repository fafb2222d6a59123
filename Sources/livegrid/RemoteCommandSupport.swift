import BrowserCore
import Concurrent
import Foundation
import Library
import LibrarySources
import LivePairing

/// What `browse` and `scan` share for remote URLs: the client's settings (the one place that reads the
/// environment for them), logging in before any UI, and a remote scan as a `LibraryScan`.
enum RemoteCommandSupport {
    /// `LIVEGRID_SSH_CONFIG`: an OpenSSH client configuration file used instead of `~/.ssh/config` (`ssh -F`);
    /// `HOME` expands `~` in identity paths. With `interactive`, passphrases and passwords are asked on the
    /// terminal (/dev/tty, no echo).
    static func configuration(interactive: Bool) -> RemoteHTTPConfiguration {
        var configuration = RemoteHTTPConfiguration()
        let environment = LaunchEnvironment.current
        configuration.netrc = Netrc.load(environment: environment.variables)
        if let file = environment.sshConfigFile { configuration.ssh.openSSHConfigFile = file }
        if let home = environment.home { configuration.ssh.homeDirectory = home }
        if interactive { configuration.ssh.askSecret = { TerminalSecretPrompt.ask($0) } }
        return configuration
    }

    /// Connects and logs in (SFTP) before the browser takes the screen, so a refused host key or login is a
    /// plain message on the terminal, and prompts happen while the terminal is still a terminal.
    static func prepare(_ url: URL, client: RemoteHTTPClient) throws {
        let outcome = wait { try await client.prepare(url) }
        if case .failure(let error) = outcome { throw error }
    }

    /// Lists, probes and pairs a remote directory (and its subdirectories with `recursive`) like a local scan.
    /// File paths start with the URL as shown (no password), then the names as listed (decoded), as local
    /// paths start with the scanned directory.
    static func scan(_ url: URL, client: RemoteHTTPClient, recursive: Bool) throws -> LibraryScan {
        var downloads = DownloadManager.Configuration()
        downloads.cacheRoot = DownloadCache.defaultRoot(environment: LaunchEnvironment.current.variables)
        let manager = DownloadManager(client: client, configuration: downloads)
        let root = RemoteLibrary(url: url, client: client, downloads: manager)
        var items: [LibraryItem] = []
        var warnings: [String] = []
        let rootText = BrowserState.displayString(root.url)
        var pending = [(root, "")]
        while let (library, prefix) = pending.popLast() {
            let rejected = Locked<[RejectedRemoteEntry]>([])
            let token = library.addObserver { event in
                if case .listed(_, _, let refused) = event { rejected.set(refused) }
            }
            let outcome = wait { try await library.load() }
            library.removeObserver(token)
            switch outcome {
            case .failure(let error) where library === root: throw error
            case .failure(let error):
                warnings.append("\(BrowserState.displayString(library.url)): \(error)")
            case .success(let remoteItems):
                warnings += rejected.value.map { "\(BrowserState.displayString(library.url)): skipped \($0)" }
                items += remoteItems.map { withPaths($0, prefix: rootText + prefix) }
                if recursive, prefix.split(separator: "/").count < 32 {
                    pending += library.subdirectories.reversed().map { (library.subdirectory($0), prefix + $0.name + "/") }
                }
            }
        }
        return LibraryScan(root: BrowserState.displayString(url), items: items, warnings: warnings,
                           bytesRead: root.probeBytes, reads: root.probeRequests)
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
enum TerminalSecretPrompt {
    static func ask(_ prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL | ICANON)
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return nil }
        defer { _ = tcsetattr(fd, TCSAFLUSH, &saved) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096 {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            guard n == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
