/// A 24-bit colour.
public struct RGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
    public init(packed: UInt32) {
        self.init(UInt8((packed >> 16) & 0xFF), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF))
    }
    public var packed: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }
}

/// One character cell of a picture drawn with symbols.
public struct PictureCell: Sendable, Hashable {
    public var character: Character
    public var foreground: RGB
    public var background: RGB
    public init(character: Character, foreground: RGB, background: RGB) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }
}

/// A picture as terminal cells, row-major; what a thumbnail provider hands the grid.
public struct CellPicture: Sendable {
    public var width: Int
    public var height: Int
    public var cells: [PictureCell]

    public init(width: Int, height: Int, cells: [PictureCell]) {
        self.width = max(0, width)
        self.height = max(0, height)
        // Never trust the count: pad or cut to exactly width*height so drawing can index freely.
        var cells = Array(cells.prefix(self.width * self.height))
        if cells.count < self.width * self.height {
            cells += Array(repeating: PictureCell(character: " ", foreground: RGB(0, 0, 0), background: RGB(0, 0, 0)),
                           count: self.width * self.height - cells.count)
        }
        self.cells = cells
    }

    public func cell(x: Int, y: Int) -> PictureCell? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return cells[y * width + x]
    }
}
