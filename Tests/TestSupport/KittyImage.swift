import Foundation

/// A kitty graphics image as chafa prints it (`a=T,f=32,s=W,v=H`, then base64 RGBA in `m=1` chunks, each padded),
/// or as livegrid sends it (`f=100`: a PNG, decoded by `decodePNG`, which TestSupport cannot link).
public struct KittyImage {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]

    public init?(bytes: [UInt8], decodePNG: ([UInt8]) -> [UInt8]? = { _ in nil }) {
        let text = String(decoding: bytes, as: UTF8.self)
        var data = Data()
        var width: Int?, height: Int?
        var isPNG = false
        for piece in text.components(separatedBy: "\u{1B}_G").dropFirst() {
            guard let end = piece.range(of: "\u{1B}\\") else { continue }
            let body = piece[..<end.lowerBound]
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            for key in parts[0].split(separator: ",") {
                if key.hasPrefix("s=") { width = Int(key.dropFirst(2)) }
                if key.hasPrefix("v=") { height = Int(key.dropFirst(2)) }
                if key == "f=100" { isPNG = true }
            }
            // chafa pads every chunk: decode them one by one.
            if parts.count > 1, !parts[1].isEmpty {
                guard let chunk = Data(base64Encoded: String(parts[1])) else { return nil }
                data += chunk
            }
        }
        if isPNG, let decoded = decodePNG(Array(data)) { data = Data(decoded) }
        guard let width, let height, data.count == width * height * 4 else {
            return nil
        }
        self.width = width
        self.height = height
        rgba = Array(data)
    }

    public func pixel(x: Int, y: Int) -> [Int] {
        let i = (y * width + x) * 4
        return [Int(rgba[i]), Int(rgba[i + 1]), Int(rgba[i + 2])]
    }
}
