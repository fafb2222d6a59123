import Imaging
import TerminalGraphics
import VideoPlayback

/// Whatever draws a movie frame once it is rendered for the terminal: the browser's playback (keeps the
/// newest for the event loop), the studio's preview (the same), `livegrid play` (writes it to stdout). The
/// one small seam between the player and the picture output, so that a frame can go to a per-protocol
/// picture output later without touching the player.
public protocol RenderedFrameTarget: Sendable {
    /// Called on the player's presenter thread when the frame is due.
    func show(_ image: RenderedImage)
}

/// The terminal's video sink: `render` turns a decoded frame into cells or a pixel picture ahead of its time
/// (on the presenter thread, while the next frames decode), and `target` gets it when it is due.
public struct TerminalVideoSink: VideoSink {
    private let render: @Sendable (DecodedFrame) -> RenderedImage?
    private let target: any RenderedFrameTarget

    public init(render: @escaping @Sendable (DecodedFrame) -> RenderedImage?, target: any RenderedFrameTarget) {
        self.render = render
        self.target = target
    }

    public func prepare(_ frame: DecodedFrame) -> RenderedImage? { render(frame) }

    public func present(_ frame: DecodedFrame, _ picture: RenderedImage) { target.show(picture) }
}
