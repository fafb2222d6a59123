import TerminalGraphics
import TerminalProtocol

/// Which tmux client shows livegrid's pane when livegrid's own control-mode clients (the redraw watch) are
/// attached too: tmux's own rule (`cmd_find_best_client` in tmux 3.3a: the most recently active client of
/// the pane's session, or of any session when that one has none) applied to the other clients. Pure: it
/// reads one `list-clients -F format ; display -p -t PANE '#{session_id}'` answer.
struct TmuxClientListing: Equatable, Sendable {
    static let format = "#{client_pid}|#{client_name}|#{client_activity}|#{session_id}"

    /// The client to name with `display -c`, nil when only ignored clients (or none) are attached.
    var client: String?
    /// How many ignored clients are attached to the pane's session (they count in `#{session_attached}`).
    var ignoredOnSession: Int

    static func choose(_ answer: String, ignoring: Set<Int>) -> TmuxClientListing {
        let lines = answer.split(separator: "\n").map(String.init)
        guard let session = lines.last?.trimmingCharacters(in: .whitespaces), session.hasPrefix("$") else {
            return TmuxClientListing(client: nil, ignoredOnSession: 0)
        }
        struct Client { var pid: Int?; var name: String; var activity: Int; var session: String }
        let clients = lines.dropLast().compactMap { line -> Client? in
            let fields = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, !fields[1].isEmpty, !fields[3].isEmpty else { return nil }
            return Client(pid: Int(fields[0]), name: fields[1], activity: Int(fields[2]) ?? 0, session: fields[3])
        }
        let ignored = clients.filter { $0.pid.map(ignoring.contains) ?? false }
        let others = clients.filter { !($0.pid.map(ignoring.contains) ?? false) }
        let onSession = others.filter { $0.session == session }
        let candidates = onSession.isEmpty ? others : onSession
        // Ties go to the earlier client, as tmux's strict "newer than" comparison does.
        let best = candidates.reduce(nil as Client?) { best, client in
            guard let best else { return client }
            return client.activity > best.activity ? client : best
        }
        return TmuxClientListing(client: best?.name, ignoredOnSession: ignored.filter { $0.session == session }.count)
    }

    /// The facts as they would read without the ignored clients attached.
    func applied(to facts: TmuxFacts) -> TmuxFacts {
        var facts = facts
        facts.sessionAttached = max(0, facts.sessionAttached - ignoredOnSession)
        if client == nil {
            facts.clientPID = nil
            facts.clientTermname = ""
            facts.clientTermtype = ""
            facts.clientTermfeatures = ""
        }
        return facts
    }
}
