import Concurrent
import Foundation
import Library
import LibrarySources

/// Figures for Benchmarks/remote.sh (which starts nginx on loopback and passes the URLs):
///   remote-bench listing URL   time to the listing with placeholders and to all items paired
///   remote-bench download URL  one large file through DownloadManager (the script times curl beside it
///                              and reads peak RSS with /usr/bin/time)
/// Was two XCTest "tests" that printed figures and asserted nothing.
@main
struct RemoteBench {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let url = URL(string: arguments[arguments.startIndex + 1]) else {
            FileHandle.standardError.write(Data("usage: remote-bench listing|download URL\n".utf8))
            exit(2)
        }
        do {
            switch arguments.first {
            case "listing": try await listingAndPairing(url)
            case "download": try await largeDownload(url)
            default:
                FileHandle.standardError.write(Data("usage: remote-bench listing|download URL\n".utf8))
                exit(2)
            }
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }

    static func temporaryCache(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("livegrid-bench-\(name)-\(getpid())")
    }

    static func client() -> RemoteHTTPClient {
        var http = RemoteHTTPConfiguration()
        http.netrc = Netrc()
        return RemoteHTTPClient(configuration: http)
    }

    /// Time to the listing with placeholders and to all items paired.
    static func listingAndPairing(_ url: URL) async throws {
        let cache = temporaryCache("list")
        defer { try? FileManager.default.removeItem(at: cache) }   // absent is fine: nothing was downloaded
        let config = DownloadManager.Configuration(cacheRoot: cache.path)
        let client = client()
        let library = RemoteLibrary(url: url, client: client, downloads: DownloadManager(client: client, configuration: config))
        let start = Date()
        let listed = Locked<(at: Date, count: Int)?>(nil)
        library.addObserver { event in
            if case .listed(let items, _, _) = event {
                listed.withLockedValue { if $0 == nil { $0 = (Date(), items.count) } }
            }
        }
        let items = try await library.load()
        let paired = Date().timeIntervalSince(start)
        let (at, count) = listed.value ?? (Date.distantPast, 0)
        print(String(format: "BENCH listing-with-placeholders: %.3f s (%d placeholders)", at.timeIntervalSince(start), count))
        print(String(format: "BENCH all-paired: %.3f s (%d items, %d header requests, %llu header bytes)",
                     paired, items.count, library.probeRequests, library.probeBytes))
    }

    /// Downloads one large file through DownloadManager.
    static func largeDownload(_ url: URL) async throws {
        let cache = temporaryCache("dl")
        defer { try? FileManager.default.removeItem(at: cache) }   // absent is fine: the download failed early
        let config = DownloadManager.Configuration(cacheRoot: cache.path)
        let manager = DownloadManager(client: client(), configuration: config)
        // Told by the manager (not polled), so the figure is not rounded up to a polling interval.
        let updates = manager.updates()
        let start = Date()
        manager.request(url)
        for await (changed, state) in updates where changed == url {
            if case .downloaded(let path) = state {
                let seconds = Date().timeIntervalSince(start)
                let size = manager.cache.fileSize(path) ?? 0
                print(String(format: "BENCH download: %llu bytes in %.3f s = %.1f MB/s", size, seconds,
                             Double(size) / seconds / 1e6))
                return
            }
            if case .failed(let why, _) = state {
                print("error: \(why)")
                exit(1)
            }
        }
    }
}
