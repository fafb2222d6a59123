import TerminalProtocol
import TerminalGraphics

/// A picture in a protocol's framing whose payload carries `#tag#`, so a test sees which picture reached the
/// screen (and how often) by searching the bytes written.
enum TaggedPicture {
    /// `paddedTo`: the tag is followed by `?` up to that many bytes, for tests that count bytes against a budget.
    static func make(_ tag: String, mode: GraphicsMode, paddedTo padding: Int? = nil) -> RenderedImage {
        var name = Array("#\(tag)#".utf8)
        if let padding { name += Array(repeating: UInt8(ascii: "?"), count: max(0, padding - name.count)) }
        let payload: [UInt8]
        switch mode {
        case .sixels: payload = Array("\u{1B}P0;1;0q\"1;1;200;160".utf8) + name + Array("~-\u{1B}\\".utf8)
        case .kitty: payload = Array("\u{1B}_Ga=T,f=100,s=200,v=160,c=20,r=8;".utf8) + name + Array("\u{1B}\\".utf8)
        case .iterm: payload = Array("\u{1B}]1337;File=inline=1;width=20;height=8:".utf8) + name + [0x07]
        case .symbols: payload = []
        }
        return RenderedImage(columns: 20, rows: 8, mode: mode, colorDepth: .truecolor, bytes: payload)
    }
}
