import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One page of a ListObjectsV2 answer (`encoding-type=url`: keys and prefixes are URL-encoded, space as `+`).
struct S3ListPage {
    struct Object {
        var key: String
        var size: UInt64?
        var lastModified: Date?
        var etag: String?
    }
    var objects: [Object] = []
    var prefixes: [String] = []
    var isTruncated = false
    var nextToken: String?

    /// Nil when the body is not a `ListBucketResult` (an HTML page, a proxy's answer...).
    static func parse(_ body: [UInt8]) -> S3ListPage? {
        let reader = S3XMLReader()
        guard reader.read(body), reader.root == "ListBucketResult" else { return nil }
        return reader.page
    }

    /// `encoding-type=url` decoding: `+` is a space, then percent-escapes (a literal `+` comes as `%2B`).
    static func decodeKey(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// S3's `<Error>` document.
struct S3ErrorDocument {
    var code: String
    var message: String?
    var region: String?
    var endpoint: String?

    static func parse(_ body: [UInt8]) -> S3ErrorDocument? {
        let reader = S3XMLReader()
        guard !body.isEmpty, reader.read(body), reader.root == "Error", let code = reader.errorFields["Code"], !code.isEmpty else { return nil }
        return S3ErrorDocument(code: code, message: reader.errorFields["Message"], region: reader.errorFields["Region"],
                               endpoint: reader.errorFields["Endpoint"])
    }
}

/// Reads both documents with Foundation's XMLParser (a few hundred KB per page at most).
private final class S3XMLReader: NSObject, XMLParserDelegate {
    var root: String?
    var page = S3ListPage()
    var errorFields: [String: String] = [:]
    private var path: [String] = []
    private var text = ""
    private var object: S3ListPage.Object?

    func read(_ body: [UInt8]) -> Bool {
        let parser = XMLParser(data: Data(body))
        parser.delegate = self
        parser.shouldProcessNamespaces = true
        return parser.parse()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        path.append(name)
        text = ""
        if name == "Contents", path.count == 2 { object = S3ListPage.Object(key: "") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { path.removeLast(); text = "" }
        let value = text
        switch (root, path.count >= 2 ? path[path.count - 2] : nil, name) {
        case ("Error", "Error"?, _):
            errorFields[name] = value
        case ("ListBucketResult", "ListBucketResult"?, "IsTruncated"):
            page.isTruncated = value.trimmingCharacters(in: .whitespaces) == "true"
        case ("ListBucketResult", "ListBucketResult"?, "NextContinuationToken"):
            page.nextToken = value
        case ("ListBucketResult", "ListBucketResult"?, "Contents"):
            if let object, !object.key.isEmpty { page.objects.append(object) }
            object = nil
        case ("ListBucketResult", "Contents"?, "Key"):
            object?.key = S3ListPage.decodeKey(value) ?? ""
        case ("ListBucketResult", "Contents"?, "Size"):
            object?.size = UInt64(value.trimmingCharacters(in: .whitespaces))
        case ("ListBucketResult", "Contents"?, "LastModified"):
            object?.lastModified = S3ListPage.date(value.trimmingCharacters(in: .whitespaces))
        case ("ListBucketResult", "Contents"?, "ETag"):
            object?.etag = value
        case ("ListBucketResult", "CommonPrefixes"?, "Prefix"):
            if let decoded = S3ListPage.decodeKey(value) { page.prefixes.append(decoded) }
        default:
            break
        }
    }
}
