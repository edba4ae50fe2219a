/// A window's icon, at one or more sizes, in the form X window managers and task bars read it
/// (EWMH `_NET_WM_ICON`). UIKit has no counterpart (an app's icon comes from its bundle); GTK's
/// is `gtk_window_set_icon_list`. Set ``ShellOptions/icon``; GestureX11 loads one from PNG files
/// (`WindowIcon(pngs:)`).
public struct WindowIcon: Sendable, Equatable {
    /// One size of the icon.
    public struct Image: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// `width × height` pixels, row by row, each `0xAARRGGBB` with straight (not
        /// premultiplied) alpha, as `_NET_WM_ICON` wants them.
        public var pixels: [UInt32]

        public init(width: Int, height: Int, pixels: [UInt32]) {
            precondition(width > 0 && height > 0 && pixels.count == width * height, "pixels must be width × height")
            self.width = width
            self.height = height
            self.pixels = pixels
        }
    }

    /// The sizes, in the order given.
    public var images: [Image]

    public init(images: [Image]) {
        self.images = images
    }

    /// The `_NET_WM_ICON` value: for each image its width, its height, then its pixels.
    public var cardinals: [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(images.reduce(0) { $0 + 2 + $1.pixels.count })
        for image in images {
            out.append(UInt32(image.width))
            out.append(UInt32(image.height))
            out.append(contentsOf: image.pixels)
        }
        return out
    }
}
