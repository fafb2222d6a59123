import CFFmpeg
import MediaFormats

/// Draws an HEVC-coded HEIF image (one `hvc1` item or a `grid` of them) at a chosen size: each tile is
/// decoded and scaled by libswscale straight into its rectangle of the output, so the full-size picture is
/// never assembled (a 12 MP grid shown at 128 px costs 48 small frames, not a 48 MB RGBA buffer).
struct HEVCTileGrid {
    let image: HEIFCodedImage
    let limits: ParseLimits

    /// Where tile boundaries fall when `fullSize` pixels made of `count` tiles of `tileSize` are shown in
    /// `targetSize`: boundary i is at round(min(i * tileSize, fullSize) * targetSize / fullSize). The
    /// rounded positions leave no gap and no overlap; a tile may get 0 pixels when the target is tiny.
    static func boundaries(count: Int, tileSize: Int, fullSize: Int, targetSize: Int) -> [Int] {
        (0...max(0, count)).map { i in
            let position = min(i * tileSize, fullSize)
            return Int((Double(position) * Double(targetSize) / Double(max(1, fullSize))).rounded())
        }
    }

    /// The untransformed image (before clap/irot/imir) at exactly `size`. Tiles that cannot be read or
    /// decoded (a file cut short, corrupt tile data) stay grey and the picture comes with `damage`, as long as
    /// one tile decoded; with none, the first tile's error is thrown.
    func render(source: any ByteSource, size: PixelSize) throws(ImagingError) -> (PixelFrame, damage: ImagingError?) {
        let drawn = drawingSize(for: size)
        let (frame, damage) = try draw(source: source, size: drawn)
        return (drawn == size ? frame : frame.resized(to: size), damage)
    }

    /// Tiles are scaled one by one to whole pixels, so a tile 16.25 pixels wide in the output would be drawn
    /// 16 or 17 wide: a shift of up to half a pixel at its edges, which shows on a thumbnail (measured: 5-7
    /// levels of mean difference from an exact resize at 128 px). When a tile spans fewer than 64 output
    /// pixels and not a whole number of them, the grid is drawn at about twice the size with every tile a whole
    /// number of pixels, then area-resized to `size` (exact fractional weights): the small cost buys the same
    /// picture as a full decode.
    func drawingSize(for size: PixelSize) -> PixelSize {
        guard image.tiles.count > 1 else { return size }
        func axis(_ target: Int, full: Int, tile: Int) -> Int {
            let perTile = Double(tile) * Double(target) / Double(full)
            guard perTile < 64, perTile.rounded() != perTile else { return target }
            let wholeTile = min(tile, Int((2 * perTile).rounded(.up)))
            return min(full, Int((Double(full) * Double(wholeTile) / Double(tile)).rounded()))
        }
        return PixelSize(width: axis(size.width, full: image.width, tile: image.tileWidth),
                         height: axis(size.height, full: image.height, tile: image.tileHeight))
    }

    private func draw(source: any ByteSource, size: PixelSize) throws(ImagingError) -> (PixelFrame, damage: ImagingError?) {
        guard !size.isEmpty, size.width <= image.width, size.height <= image.height else {
            throw ImagingError.cannotDecode("HEVC image of \(image.width)x\(image.height) cannot be drawn at \(size)")
        }
        // Two 32-bit ispe sizes can overflow Int64: multiply with overflow checking.
        let (pixels, overflow) = Int64(image.width).multipliedReportingOverflow(by: Int64(image.height))
        guard !overflow, pixels <= LibavFrameSource.maximumPixels else {
            throw ImagingError.tooLarge(width: image.width, height: image.height)
        }
        let count = size.width * size.height * 4
        var failure: ImagingError?
        var damage: ImagingError?
        let rgba = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Opaque grey first: where a tile cannot be decoded, the picture stays grey.
            buffer.initialize(repeating: 0x80)
            for alpha in stride(from: 3, to: count, by: 4) { buffer[alpha] = 0xFF }
            initialized = count
            guard let base = buffer.baseAddress else { return }
            do throws(ImagingError) {
                damage = try drawTiles(source: source, into: base, size: size)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return (PixelFrame(width: size.width, height: size.height, rgba: rgba), damage)
    }

    private struct ScalerKey: Hashable {
        var visible: PixelSize
        var target: PixelSize
    }

    /// Draws every tile it can; returns the first tile's error when some failed and others did not, throws
    /// it when none could be drawn.
    private func drawTiles(source: any ByteSource, into output: UnsafeMutablePointer<UInt8>, size: PixelSize) throws(ImagingError) -> ImagingError? {
        let columnEdges = Self.boundaries(count: image.columns, tileSize: image.tileWidth, fullSize: image.width, targetSize: size.width)
        let rowEdges = Self.boundaries(count: image.rows, tileSize: image.tileHeight, fullSize: image.height, targetSize: size.height)
        // Deblocking and SAO smooth edges a pixel or two wide: invisible once shrunk 2x or more.
        let skipLoopFilter = size.width * 2 <= image.width && size.height * 2 <= image.height
        // libswscale's x86 RGB writers store whole blocks of 8 or 16 pixels, so up to 15 pixels past the
        // requested width: into the next tile, the next row's start, or past the end of the output (heap
        // corruption, seen). Each tile is scaled into a padded scratch buffer, then its rectangle copied.
        let widest = zip(columnEdges, columnEdges.dropFirst()).map { $1 - $0 }.max() ?? 0
        let tallest = zip(rowEdges, rowEdges.dropFirst()).map { $1 - $0 }.max() ?? 0
        let scratchRowBytes = (widest + 64) * 4
        let scratchCount = scratchRowBytes * (tallest + 4)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCount)
        scratch.initialize(repeating: 0, count: scratchCount)
        defer { scratch.deallocate() }
        var decoder: HEVCImageDecoder?
        var scalers: [ScalerKey: FrameScaler] = [:]
        var colour: FrameScaler.YUVColour?
        var firstFailure: ImagingError?
        var drawnTiles = 0
        for (index, tile) in image.tiles.enumerated() {
            let row = index / image.columns, column = index % image.columns
            guard row < image.rows else { break }
            let x = columnEdges[column], y = rowEdges[row]
            let target = PixelSize(width: columnEdges[column + 1] - x, height: rowEdges[row + 1] - y)
            guard !target.isEmpty else { continue }
            do throws(ImagingError) {
                let data: [UInt8]
                do {
                    data = try tile.data(from: source, limits: limits)
                } catch {
                    throw ImagingError(error)
                }
                if decoder?.configuration != tile.configuration {
                    decoder = nil
                    decoder = try libav { () throws(LibavError) in
                        try HEVCImageDecoder(configuration: tile.configuration, skipLoopFilter: skipLoopFilter)
                    }
                }
                guard let decoder else { continue }
                let frame = try libav { () throws(LibavError) in try decoder.decode(data) }
                // Compared as Int: an ispe size above Int32.max trapped in Int32(...) (found by the decode fuzzer).
                guard Int(frame.pointee.width) == image.tileWidth, Int(frame.pointee.height) == image.tileHeight else {
                    throw ImagingError.cannotDecode("tile \(tile.itemID) decoded to \(frame.pointee.width)x\(frame.pointee.height), its ispe says \(image.tileWidth)x\(image.tileHeight)")
                }
                let resolved = colour ?? Self.colour(stated: image.colour, frame: frame)
                colour = resolved
                // The last column and row may overhang the output: only their visible part is scaled.
                let visible = PixelSize(width: min(image.tileWidth, image.width - column * image.tileWidth),
                                        height: min(image.tileHeight, image.height - row * image.tileHeight))
                let key = ScalerKey(visible: visible, target: target)
                let scaler = scalers[key] ?? FrameScaler(fullChroma: true)
                scalers[key] = scaler
                try libav { () throws(LibavError) in
                    try scaler.scale(frame, visible: visible, into: scratch, rowBytes: scratchRowBytes, size: target, colour: resolved)
                }
                for line in 0..<target.height {
                    (output + ((y + line) * size.width + x) * 4).update(from: scratch + line * scratchRowBytes, count: target.width * 4)
                }
                drawnTiles += 1
            } catch {
                // A cut file loses its last tiles, corrupt data a few: the others are still worth showing.
                if firstFailure == nil { firstFailure = error }
                decoder = nil  // a fresh decoder for the next tile: no state left over from the broken one
                if case .tooLarge = error.problem { throw error }
            }
        }
        if let firstFailure {
            if drawnTiles == 0 { throw firstFailure }
            return firstFailure
        }
        return nil
    }

    private func libav<T>(_ body: () throws(LibavError) -> T) throws(ImagingError) -> T {
        do {
            return try body()
        } catch {
            throw ImagingError.cannotDecode(error.description)
        }
    }

    /// The YUV matrix and range: the item's `nclx` when it states one, else the HEVC VUI, else BT.601 full
    /// range (what libheif assumes for HEIC without either).
    static func colour(stated: HEIFColourInformation?, frame: UnsafePointer<AVFrame>) -> FrameScaler.YUVColour {
        let unspecifiedMatrix = 2
        if let stated, stated.matrixCoefficients != unspecifiedMatrix {
            return FrameScaler.YUVColour(colorspace: AVColorSpace(rawValue: UInt32(clamping: stated.matrixCoefficients)),
                                         fullRange: stated.fullRange)
        }
        let colorspace = frame.pointee.colorspace == AVCOL_SPC_UNSPECIFIED ? AVCOL_SPC_SMPTE170M : frame.pointee.colorspace
        return FrameScaler.YUVColour(colorspace: colorspace, fullRange: frame.pointee.color_range != AVCOL_RANGE_MPEG)
    }
}
