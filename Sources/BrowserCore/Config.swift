import Foundation
import GraphicsSettings
import LibraryCore
import TerminalProtocol

/// The user's settings (`$XDG_CONFIG_HOME/livegrid/config.toml`); every field has a default, so a missing
/// file is the default config.
public struct BrowserConfig: Sendable {
    public var graphicsMode: GraphicsModeSetting = .auto
    /// `[graphics] colors`: the colour depth of pictures; nil (`"auto"`) lets `ColorDepthDecision` decide.
    /// The same words as `--colors` (`ColorDepth(userName:)`).
    public var colors: ColorDepth?
    public var badgeCorner: BadgeCorner = .topLeft
    public var badgeStyle: BadgeStyle = .solid
    public var zoom = GridLayout.defaultZoom
    public var mouse = true
    /// `[playback] hints`: play a second of a live item's movie once it stays selected (`--no-motion` = false).
    public var playbackHints = true
    /// `[playback] sound`: "hold" plays a held Live Photo's sound, "off" never (`--mute` = off).
    public var playbackSound = true
    /// `[export] strip_location`: the export dialog's "remove the location" starts on.
    public var stripLocation = false
    /// `[remote] max_entries`: entries kept from one remote listing (`--max-entries` overrides it).
    public var remoteMaxEntries = RemoteListingLimits.defaultMaxEntries
    /// `[library] index`: keep probes in the persistent library index (`--no-index` = false).
    public var libraryIndex = true
    /// `[triage] auto_advance`: after a rating, pick or reject the cursor moves on (`--auto-advance`).
    public var autoAdvance = false
    /// `[grid] sort` / `[grid] group`: the library view at start (`--sort`, `--group`; keys s and t).
    public var sortOrder: LibrarySortOrder = .name
    public var grouping: LibraryGrouping = .none
    public var keymap = Keymap()
    /// Non-fatal problems (unknown keys), shown in the status bar at start.
    public var warnings: [String] = []

    public init() {}

    /// Reads a config text; syntax errors and bad values throw with the line number, unknown keys warn.
    public init(parsing text: String) throws {
        self.init()
        for entry in try TOMLSubset.parse(text) {
            try apply(entry)
        }
    }

    /// The config file's path for an environment (`XDG_CONFIG_HOME`, else `~/.config`).
    public static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/livegrid/config.toml"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return home + "/.config/livegrid/config.toml"
        }
        return nil
    }

    /// A config is a page of settings: anything larger is not one (a 50 MB line once took the parser 38 s and
    /// 1 GB before it could say so).
    public static let maximumFileSize = 1 << 20

    /// Loads the config at `path`. A missing file is the default config when it is the default path; a file
    /// the user named (`--config`, `explicit`) must exist. A directory, an unreadable, oversized or invalid file
    /// throws a `ConfigError` whose description is one plain sentence.
    public static func load(path: String?, explicit: Bool = false) throws(ConfigError) -> BrowserConfig {
        guard let path else { return BrowserConfig() }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let reason = errno
            if reason == ENOENT && !explicit { return BrowserConfig() }
            throw ConfigError(path: path, message: reason == ENOENT ? "no such file" : String(cString: strerror(reason)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ConfigError(path: path, message: "is a directory, not a config file")
        default: throw ConfigError(path: path, message: "is not a regular file")
        }
        guard status.st_size <= Self.maximumFileSize else {
            throw ConfigError(path: path, message: "is \(status.st_size / 1_048_576 + 1) MB: a config file is at most 1 MB")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConfigError(path: path, message: "cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }   // try?: closing a file only read cannot lose anything
        let data: Data
        do {
            data = try handle.read(upToCount: Self.maximumFileSize + 1) ?? Data()
        } catch {
            throw ConfigError(path: path, message: "cannot be read (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(path: path, message: "not UTF-8 text")
        }
        do {
            return try BrowserConfig(parsing: text)
        } catch let error as TOMLError {
            throw ConfigError(path: path, message: error.description)
        } catch {
            throw ConfigError(path: path, message: "\(error)")
        }
    }

    private mutating func apply(_ entry: TOMLEntry) throws {
        switch (entry.table, entry.key) {
        case ("graphics", "mode"):
            guard case .string(let text) = entry.value, let mode = GraphicsModeSetting(userName: text) else {
                throw TOMLError(line: entry.line, message: "graphics.mode must be one of: \(GraphicsModeSetting.userNames)")
            }
            graphicsMode = mode
        case ("graphics", "colors"), ("graphics", "colours"):
            guard case .string(let text) = entry.value, let setting = ColorDepthSetting(userName: text) else {
                throw TOMLError(line: entry.line, message: "graphics.colors must be one of: \(ColorDepth.userNames)")
            }
            colors = setting.depth
        case ("badge", "corner"):
            badgeCorner = try Self.choice(entry)
        case ("badge", "style"):
            badgeStyle = try Self.choice(entry)
        case ("grid", "zoom"):
            guard case .integer(let level) = entry.value, GridLayout.zoomWidths.indices.contains(level) else {
                throw TOMLError(line: entry.line,
                                message: "grid.zoom must be an integer from 0 to \(GridLayout.zoomWidths.count - 1)")
            }
            zoom = level
        case ("grid", "sort"):
            guard case .string(let text) = entry.value, let order = LibrarySortOrder(userName: text) else {
                throw TOMLError(line: entry.line, message: "grid.sort must be one of: name, date, size")
            }
            sortOrder = order
        case ("grid", "group"):
            guard case .string(let text) = entry.value, let grouping = LibraryGrouping(userName: text) else {
                throw TOMLError(line: entry.line, message: "grid.group must be one of: none, folder, date (timeline)")
            }
            self.grouping = grouping
        case ("mouse", "enabled"):
            guard case .boolean(let enabled) = entry.value else {
                throw TOMLError(line: entry.line, message: "mouse.enabled must be true or false")
            }
            mouse = enabled
        case ("playback", "hints"):
            guard case .boolean(let enabled) = entry.value else {
                throw TOMLError(line: entry.line, message: "playback.hints must be true or false")
            }
            playbackHints = enabled
        case ("playback", "sound"):
            guard case .string(let text) = entry.value, ["hold", "off"].contains(text) else {
                throw TOMLError(line: entry.line, message: "playback.sound must be \"hold\" or \"off\"")
            }
            playbackSound = text == "hold"
        case ("export", "strip_location"):
            guard case .boolean(let enabled) = entry.value else {
                throw TOMLError(line: entry.line, message: "export.strip_location must be true or false")
            }
            stripLocation = enabled
        case ("remote", "max_entries"):
            guard case .integer(let count) = entry.value, count >= 1 else {
                throw TOMLError(line: entry.line, message: "remote.max_entries must be a whole number of 1 or more")
            }
            remoteMaxEntries = count
        case ("library", "index"):
            guard case .boolean(let enabled) = entry.value else {
                throw TOMLError(line: entry.line, message: "library.index must be true or false")
            }
            libraryIndex = enabled
        case ("triage", "auto_advance"):
            guard case .boolean(let enabled) = entry.value else {
                throw TOMLError(line: entry.line, message: "triage.auto_advance must be true or false")
            }
            autoAdvance = enabled
        case ("keys", let name):
            guard let command = KeyCommand(rawValue: name) else {
                warnings.append("config line \(entry.line): unknown key command '\(name)' ignored")
                return
            }
            guard case .string(let spec) = entry.value else {
                throw TOMLError(line: entry.line, message: "keys.\(name) must be a string of key names")
            }
            var keys: [KeyInput] = []
            for name in spec.split(separator: " ") {
                guard let key = KeyInput(name: String(name)) else {
                    throw TOMLError(line: entry.line, message: "unknown key name '\(name)'")
                }
                keys.append(key)
            }
            keymap.rebind(command, to: keys)
        default:
            let name = entry.table.isEmpty ? entry.key : entry.table + "." + entry.key
            warnings.append("config line \(entry.line): unknown setting '\(name)' ignored")
        }
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ entry: TOMLEntry) throws -> T
    where T.RawValue == String {
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let text) = entry.value, let value = T(rawValue: text) else {
            throw TOMLError(line: entry.line, message: "\(entry.table).\(entry.key) must be one of: \(allowed)")
        }
        return value
    }
}

public struct ConfigError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
