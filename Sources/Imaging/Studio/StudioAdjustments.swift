import Foundation

/// Picture adjustments applied identically to a Live Photo's still and to every frame of its movie: both
/// halves go through the same libavfilter chain (DECISIONS.md: one arithmetic for both halves).
public struct StudioAdjustments: Sendable, Equatable {
    /// Centre crop to width:height (e.g. 1:1, 4:5, 16:9), relative to each half's own upright picture.
    public var aspectRatio: (width: Int, height: Int)?
    /// Exposure in stops (+1 doubles the light, -1 halves it).
    public var exposure: Double = 0
    /// 1 keeps the contrast; 0...2 (libavfilter `eq`).
    public var contrast: Double = 1
    /// 1 keeps the colours; 0 is grey, up to 3 (libavfilter `eq`).
    public var saturation: Double = 1
    public var blackAndWhite = false

    public init(aspectRatio: (width: Int, height: Int)? = nil, exposure: Double = 0, contrast: Double = 1,
                saturation: Double = 1, blackAndWhite: Bool = false) {
        self.aspectRatio = aspectRatio
        self.exposure = exposure
        self.contrast = contrast
        self.saturation = saturation
        self.blackAndWhite = blackAndWhite
    }

    public static func == (a: StudioAdjustments, b: StudioAdjustments) -> Bool {
        a.aspectRatio?.width == b.aspectRatio?.width && a.aspectRatio?.height == b.aspectRatio?.height
            && a.exposure == b.exposure && a.contrast == b.contrast && a.saturation == b.saturation
            && a.blackAndWhite == b.blackAndWhite
    }

    public var isEmpty: Bool { self == StudioAdjustments() }

    /// Plain-language problems with the values (nil when they are usable).
    public var problem: String? {
        if let ratio = aspectRatio, ratio.width <= 0 || ratio.height <= 0 || ratio.width > 100 || ratio.height > 100 {
            return "--crop takes a ratio like 1:1, 4:5 or 16:9"
        }
        if !exposure.isFinite || abs(exposure) > 4 { return "--exposure takes stops between -4 and 4" }
        if !contrast.isFinite || contrast < 0 || contrast > 2 { return "--contrast takes a value between 0 and 2 (1 = unchanged)" }
        if !saturation.isFinite || saturation < 0 || saturation > 3 { return "--saturation takes a value between 0 and 3 (1 = unchanged)" }
        return nil
    }

    /// The centre crop of an upright picture of `width`×`height` (even sizes, for 4:2:0 video).
    public func cropSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard let ratio = aspectRatio else { return nil }
        let wanted = Double(ratio.width) / Double(ratio.height)
        var w = width, h = height
        if Double(width) / Double(height) > wanted {
            w = Int((Double(height) * wanted).rounded())
        } else {
            h = Int((Double(width) / wanted).rounded())
        }
        w = max(2, w - w % 2)
        h = max(2, h - h % 2)
        return (w, h)
    }

    /// The filter chain for an upright picture of `width`×`height` (nil when nothing changes).
    func filters(width: Int, height: Int) -> [String] {
        var chain: [String] = []
        if exposure > 0 {
            let white = String(format: "%.6f", pow(2, -exposure))
            chain.append("colorlevels=rimax=\(white):gimax=\(white):bimax=\(white)")
        } else if exposure < 0 {
            let out = String(format: "%.6f", pow(2, exposure))
            chain.append("colorlevels=romax=\(out):gomax=\(out):bomax=\(out)")
        }
        if contrast != 1 || saturation != 1 {
            chain.append(String(format: "eq=contrast=%.4f:saturation=%.4f", contrast, saturation))
        }
        if blackAndWhite { chain.append("hue=s=0") }
        // The crop last: colour filters commute with it, and FFmpeg 5.1's colorlevels reads whole
        // linesizes from a cropped packed-RGB frame's shifted start, past the buffer's end (a crash).
        if let crop = cropSize(width: width, height: height), crop.width != width || crop.height != height {
            chain.append("crop=\(crop.width):\(crop.height)")
        }
        return chain
    }
}
