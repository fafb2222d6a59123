import Foundation
#if canImport(FoundationXML)
import FoundationXML
import LibraryCore
#endif

extension RemoteListingParser {
    /// WebDAV `PROPFIND` Depth 1 `multistatus`: one `response` per entry (the first is the directory itself).
    /// Namespace prefixes vary by server (`D:`, `d:`, `lp1:`), so elements are matched by local name.
    public static func parseWebDAV(_ body: Data, baseURL: URL) -> RemoteListing {
        var listing = RemoteListing(baseURL: baseURL, format: .webDAV)
        let collector = MultistatusCollector()
        let parser = XMLParser(data: body)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        if !parser.parse() && collector.responses.isEmpty {
            listing.rejected.append(RejectedRemoteEntry(raw: "(listing)", reason: "malformed multistatus XML"))
            return listing
        }
        for response in collector.responses {
            guard response.ok else { continue }
            switch RemoteEntryValidator.check(href: response.href, baseURL: baseURL) {
            case .skip:
                continue
            case .reject(let reason):
                listing.rejected.append(RejectedRemoteEntry(raw: response.href, reason: reason))
            case .accept(let name, let url, let hrefSaysDirectory):
                let isDirectory = response.isCollection || hrefSaysDirectory
                listing.append(RemoteEntry(
                    name: name, url: isDirectory ? RemoteEntryValidator.directoryURL(url) : url,
                    isDirectory: isDirectory,
                    size: isDirectory ? nil : response.contentLength,
                    modificationTime: response.lastModified.flatMap(HTTPDate.parse),
                    etag: response.etag))
            }
        }
        return listing
    }
}

/// SAX collector for `multistatus`; keeps only what a listing needs, bounded in count.
private final class MultistatusCollector: NSObject, XMLParserDelegate {
    struct Response {
        var href = ""
        var isCollection = false
        var contentLength: UInt64?
        var lastModified: String?
        var etag: String?
        var ok = true
    }
    private(set) var responses: [Response] = []
    private var current: Response?
    private var text = ""
    private let maxResponses = 100_000

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        switch localName(name) {
        case "response": current = Response()
        case "collection": current?.isCollection = true
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < 64 << 10 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch localName(name) {
        case "href": if current?.href.isEmpty == true { current?.href = value }
        case "getcontentlength": current?.contentLength = UInt64(value)
        case "getlastmodified": current?.lastModified = value
        case "getetag": current?.etag = value.isEmpty ? nil : value
        case "status":
            // A propstat with 404 lists properties the server lacks; only a non-2xx for the whole response matters.
            break
        case "response":
            if let done = current, responses.count < maxResponses { responses.append(done) }
            current = nil
        default: break
        }
        text = ""
    }

    private func localName(_ name: String) -> String {
        name.split(separator: ":").last.map { $0.lowercased() } ?? name.lowercased()
    }
}
