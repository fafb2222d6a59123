import CCurl
import Concurrent
import Foundation
import LibraryCore

/// libcurl's multi interface on one worker thread, for all transfers of one `RemoteHTTPClient`.
///
/// Why libcurl directly: it is what FoundationNetworking's URLSession runs on Linux, minus URLSession's
/// per-chunk dispatch through queues (16 KiB pieces, several times curl's CPU) and minus its missing
/// backpressure (bodies piled up in memory when the disk was slower than the network). Here the body callback
/// hands curl's own buffer to the handler synchronously, so the socket is read only as fast as the consumer
/// takes it. The multi handle keeps connections alive between requests (HTTP/1.1 keep-alive) and uses the
/// system CA store unless the configuration names a bundle.
///
/// Threading: `submit` and `cancel` may be called from any thread (handlers included); they queue work in
/// `shared` and wake the worker with `curl_multi_wakeup`. Only the worker touches the multi handle and the
/// easy handles.
// unchecked: owns the curl multi handle (C) and `active`, touched only by its worker thread; the rest is in
// `shared`.
final class CurlEngine: @unchecked Sendable {
    /// `curl_global_init` exactly once per process, before the first handle (a `static let` is thread-safe).
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    private let multi: UnsafeMutableRawPointer?
    /// What callers and the worker share.
    private struct Shared {
        var inbox: [CurlTransfer] = []
        var shuttingDown = false
        /// The multi handle is freed: a late `cancel` (a task outliving `invalidate`) must not wake it.
        var multiFreed = false
        var workerStarted = false
        /// The worker's thread, so that a shutdown from inside a handler does not wait for itself.
        var workerThread: pthread_t?
    }
    private let shared = Locked(Shared())
    /// Worker thread only.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Signalled when the worker has cleaned the multi handle up (its connections closed).
    private let workerEnded = DispatchSemaphore(value: 0)

    init() {
        multi = Self.globalInit == CURLE_OK ? curl_multi_init() : nil
    }

    /// Queues `transfer`; its handler is called on the worker thread from now on.
    func submit(_ transfer: CurlTransfer) {
        let canStart = multi != nil && transfer.setupError == nil
        let (accepted, startsWorker): (Bool, Bool) = shared.withLockedValue { shared in
            guard !shared.shuttingDown, canStart else { return (false, false) }
            shared.inbox.append(transfer)
            defer { shared.workerStarted = true }
            return (true, !shared.workerStarted)
        }
        if startsWorker { NamedThread.start("livegrid-http") { [self] in run() } }
        if accepted {
            wake()
        } else {
            // Never call back inside the caller's own call (it may hold a lock the handler takes).
            let reason: RemoteError = transfer.setupError ?? (multi == nil ? .transport("libcurl could not start") : .cancelled)
            DispatchQueue.global().async { transfer.complete(reason) }
        }
    }

    /// Ends `transfer` with `reason` (unless it already ended); safe from any thread.
    func cancel(_ transfer: CurlTransfer, reason: RemoteError) {
        transfer.stop(reason)
        wake()
    }

    /// Ends every transfer with `.cancelled` and stops the worker; later submissions complete with `.cancelled`.
    func shutdown() {
        let (first, started): (Bool, Bool) = shared.withLockedValue { shared in
            defer { shared.shuttingDown = true }
            return (!shared.shuttingDown, shared.workerStarted)
        }
        guard first else { return }
        // A running worker cleans the multi handle up on its way out.
        if started {
            wake()
        } else if let multi {
            shared.withLockedValue { $0.multiFreed = true }
            curl_multi_cleanup(multi)
        }
    }

    /// Waits until `deadline` at most for a shut-down worker to have closed its connections: they are closed with
    /// OpenSSL, and a command that exited right after dropping its client crashed in OpenSSL's exit handlers
    /// under a worker still closing (issue 32.9). Returns at once on the worker itself or when none ran.
    func waitForWorker(until deadline: DispatchTime) {
        let (started, worker): (Bool, pthread_t?) = shared.withLockedValue { ($0.workerStarted, $0.workerThread) }
        let onWorker = worker.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        guard started, !onWorker, workerEnded.wait(timeout: deadline) == .success else { return }
        workerEnded.signal()   // for a second caller
    }

    /// Under the lock, so that the worker cannot free the handle during the call (curl_multi_wakeup writes one
    /// byte to a non-blocking socket: it never waits).
    private func wake() {
        let multi = multi
        shared.withLockedValue { if !$0.multiFreed, let multi { curl_multi_wakeup(multi) } }
    }

    // MARK: worker thread

    private func run() {
        shared.withLockedValue { $0.workerThread = pthread_self() }
        defer { workerEnded.signal() }
        guard let multi else { return }
        while true {
            let (incoming, ending): ([CurlTransfer], Bool) = shared.withLockedValue { shared in
                defer { shared.inbox.removeAll() }
                return (shared.inbox, shared.shuttingDown)
            }
            for transfer in incoming { add(transfer) }
            if ending {
                for transfer in Array(active.values) { finish(transfer, code: CURLE_ABORTED_BY_CALLBACK, override: .cancelled) }
                break
            }
            for transfer in active.values.filter({ $0.stopReason != nil }) {
                finish(transfer, code: CURLE_ABORTED_BY_CALLBACK, override: nil)
            }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                // The message dies with remove_handle: read it first.
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = ccurl_message_result(message)
                if let transfer = active[easy] { finish(transfer, code: code, override: nil) }
            }

            // Idle timeout: no header or body byte for too long (connecting included).
            let now = DispatchTime.now().uptimeNanoseconds
            for transfer in active.values where now > transfer.lastActivity &&
                now - transfer.lastActivity > transfer.idleNanoseconds {
                finish(transfer, code: CURLE_OPERATION_TIMEDOUT, override: .timedOut)
            }

            // Short polls while busy so idle timeouts and cancellations are noticed promptly; a wakeup from
            // `submit`/`cancel` ends the wait at once either way.
            _ = curl_multi_poll(multi, nil, 0, active.isEmpty ? 60_000 : 100, nil)
        }
        let leftovers: [CurlTransfer] = shared.withLockedValue { shared in
            defer { shared.inbox.removeAll() }
            return shared.inbox
        }
        for transfer in leftovers { transfer.complete(.cancelled) }
        shared.withLockedValue { $0.multiFreed = true }
        curl_multi_cleanup(multi)
    }

    private func add(_ transfer: CurlTransfer) {
        guard let multi, let easy = transfer.easy else { transfer.complete(.cancelled); return }
        if let reason = transfer.stopReason { transfer.complete(reason); return }
        transfer.lastActivity = DispatchTime.now().uptimeNanoseconds
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            transfer.complete(.transport("libcurl refused the request"))
            return
        }
        active[easy] = transfer
    }

    /// Takes the transfer off the multi handle and calls `onComplete` with the reason it ended: a recorded
    /// stop reason (cancel, a handler's error), `override`, or libcurl's result.
    private func finish(_ transfer: CurlTransfer, code: CURLcode, override: RemoteError?) {
        guard let multi, let easy = transfer.easy else { return }
        curl_multi_remove_handle(multi, easy)
        active[easy] = nil
        if let override { transfer.stop(override) }
        var outcome: RemoteError?
        if let reason = transfer.stopReason {
            outcome = reason
        } else if code == CURLE_OK {
            outcome = transfer.deliverResponse()   // a response without a body
        } else {
            outcome = transfer.failure(code)
        }
        transfer.complete(outcome)
    }
}

extension RemoteError {
    /// The user-facing reason for a libcurl failure.
    /// `host`: the server's name as it was looked up (an SSH alias's HostName).
    init(curlCode code: CURLcode, detail: String, maxRedirects: Int, host: String) {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            self = .hostNotFound(host)
        case CURLE_COULDNT_RESOLVE_PROXY:
            // libcurl: "Could not resolve proxy: NAME".
            let name = detail.range(of: "proxy: ").map { String(detail[$0.upperBound...]) }
            self = .proxyNotFound(name.flatMap { $0.isEmpty ? nil : $0 } ?? "host")
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_TOO_MANY_REDIRECTS:
            self = .tooManyRedirects(maxRedirects)
        case CURLE_COULDNT_CONNECT, CURLE_RECV_ERROR,
             CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_WEIRD_SERVER_REPLY:
            self = .connectionLost(detail)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CLIENTCERT:
            self = .tls(detail)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self = .unsupportedURL(detail)
        case CURLE_ABORTED_BY_CALLBACK:
            self = .cancelled
        default:
            self = .transport(detail)
        }
    }
}
