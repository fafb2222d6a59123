import CTurboJPEG
import Imaging
import XCTest

/// JPEGs made in the test with TurboJPEG, plus a hand-written Exif APP1: no external tools needed.
enum GeneratedJPEG {
    static let red: (UInt8, UInt8, UInt8) = (255, 0, 0)
    static let green: (UInt8, UInt8, UInt8) = (0, 255, 0)
    static let blue: (UInt8, UInt8, UInt8) = (0, 0, 255)

    /// Encodes RGBA pixels as a baseline JPEG (quality 95, 4:4:4 so 16x16 colour blocks stay clean).
    static func encode(_ frame: PixelFrame) throws -> [UInt8] {
        guard let handle = tjInitCompress() else { throw XCTSkip("TurboJPEG compressor unavailable") }
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = frame.rgba.withUnsafeBufferPointer { px in
            tjCompress2(handle, px.baseAddress, Int32(frame.width), Int32(frame.rowBytes), Int32(frame.height),
                        Int32(TJPF_RGBA.rawValue), &jpeg, &size, Int32(TJSAMP_444.rawValue), 95, 0)
        }
        guard rc == 0, let jpeg else { throw XCTSkip("TurboJPEG could not encode") }
        defer { tjFree(jpeg) }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(size)))
    }

    /// `jpeg` with an Exif APP1 (big-endian TIFF, IFD0 holding only Orientation) right after SOI.
    static func withExifOrientation(_ jpeg: [UInt8], orientation: Int) -> [UInt8] {
        var tiff: [UInt8] = Array("MM".utf8) + [0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
        tiff += [0x00, 0x01]                                     // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]   // Orientation, SHORT, count 1
        tiff += [0x00, UInt8(orientation), 0x00, 0x00]            // value, left-justified
        tiff += [0x00, 0x00, 0x00, 0x00]                          // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }

    /// A frame filled with `background` and 16x16 squares of colour at the given corners.
    static func frame(width: Int, height: Int, markers: [(corner: Corner, color: (UInt8, UInt8, UInt8))]) -> PixelFrame {
        var f = PixelFrame(width: width, height: height, fill: (200, 200, 200, 255))
        for (corner, color) in markers {
            let x0 = corner.isLeft ? 0 : width - 16
            let y0 = corner.isTop ? 0 : height - 16
            for y in y0..<y0 + 16 {
                for x in x0..<x0 + 16 {
                    let i = (y * width + x) * 4
                    f.rgba[i] = color.0; f.rgba[i + 1] = color.1; f.rgba[i + 2] = color.2
                }
            }
        }
        return f
    }

    enum Corner: CaseIterable {
        case topLeft, topRight, bottomLeft, bottomRight
        var isLeft: Bool { self == .topLeft || self == .bottomLeft }
        var isTop: Bool { self == .topLeft || self == .topRight }
    }

    /// The mean colour of a 6x6 patch centred in the 16x16 marker square at `corner`.
    static func sample(_ f: PixelFrame, _ corner: Corner, markerSize: Int = 16) -> (Int, Int, Int) {
        let cx = corner.isLeft ? markerSize / 2 : f.width - markerSize / 2
        let cy = corner.isTop ? markerSize / 2 : f.height - markerSize / 2
        var r = 0, g = 0, b = 0, n = 0
        for y in (cy - 3)..<(cy + 3) {
            for x in (cx - 3)..<(cx + 3) {
                let i = (y * f.width + x) * 4
                r += Int(f.rgba[i]); g += Int(f.rgba[i + 1]); b += Int(f.rgba[i + 2]); n += 1
            }
        }
        return (r / n, g / n, b / n)
    }

    static func isColor(_ c: (Int, Int, Int), _ expected: (UInt8, UInt8, UInt8)) -> Bool {
        abs(c.0 - Int(expected.0)) < 40 && abs(c.1 - Int(expected.1)) < 40 && abs(c.2 - Int(expected.2)) < 40
    }
}
