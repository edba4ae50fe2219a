import CXCB
import GestureKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// XI 2.1 smooth scroll: the scroll valuators of each slave device, read from
/// `XIQueryDevice` (`XIScrollClass`: the valuator's number, vertical or horizontal, and its
/// `increment`, the value of one wheel click); an `XI_Motion` that moves one is a `continuous`
/// scroll of (change ÷ increment) × ``ScrollInput/clickDistance`` points, the content moving
/// against the scroll (a valuator growing is a scroll down or right). Ctrl makes it a scroll-zoom.
///
/// The XI 2.1 rules on emulation: the server turns smooth scroll into wheel buttons and wheel
/// buttons into smooth scroll, and flags what it made `XIPointerEmulated`. The shell takes only
/// what is not emulated — smooth scroll from the valuators, a wheel without valuators (or XTest)
/// from its buttons — so nothing counts twice. (Without any scroll valuator known it takes the
/// emulated buttons too.) The first event of a device after the pointer entered the window sets
/// the baseline: valuators are absolute, and their value while the pointer was elsewhere is not ours.
extension X11Shell {
    /// One device's scroll valuators and their last values.
    struct ScrollAxes {
        var vertical: Int = -1
        var verticalIncrement = 0.0
        var horizontal: Int = -1
        var horizontalIncrement = 0.0
        var lastVertical: Double?
        var lastHorizontal: Double?
    }

    /// Reads every device's scroll classes: at start waiting for the reply, after the device
    /// hierarchy changed (`wait` false) when it comes (``PendingReplies``: the loop never waits
    /// on the server).
    func queryScrollAxes(wait: Bool = true) {
        guard xinputVersion >= 2.1 else { return }
        let cookie = xcb_input_xi_query_device(x.raw, 0)  // XIAllDevices
        guard wait else {
            replies.expect(cookie.sequence) { [unowned self] reply in
                if let reply { setScrollAxes(XReplyDecoder.scrollValuators(reply)) }
            }
            return
        }
        guard let reply = xcb_input_xi_query_device_reply(x.raw, cookie, nil) else { return }
        // Read within the reply's length (XReplyDecoder): num_infos and each class's len are
        // the server's word.
        setScrollAxes(XConnection.withReply(reply) { XReplyDecoder.scrollValuators($0) })
    }

    private func setScrollAxes(_ valuators: [Int32: XReplyDecoder.ScrollValuators]) {
        input.scrollAxes = valuators.mapValues {
            ScrollAxes(
                vertical: $0.vertical, verticalIncrement: $0.verticalIncrement, horizontal: $0.horizontal,
                horizontalIncrement: $0.horizontalIncrement)
        }
    }

    /// An `XI_Motion` (not emulated: the caller checks) whose scroll valuators moved: a
    /// continuous scroll. The event is read once, the axes chosen by its source device.
    func scrollValuators(_ bytes: UnsafeRawBufferPointer, x ex: Double, y ey: Double, modifiers: UInt32, time: UInt32) {
        let table = input.scrollAxes
        guard
            let v = XI2Decoder.motionValuators(
                bytes, xiOpcode: input.xiOpcode, axes: { table[$0].map { ($0.vertical, $0.horizontal) } }),
            var axes = input.scrollAxes[v.source]
        else { return }
        let source = v.source
        var delta = Vector.zero
        if let value = v.first {
            if let last = axes.lastVertical {
                delta.dy = -(value - last) / axes.verticalIncrement * ScrollInput.clickDistance
            }
            axes.lastVertical = value
        }
        if let value = v.second {
            if let last = axes.lastHorizontal {
                delta.dx = -(value - last) / axes.horizontalIncrement * ScrollInput.clickDistance
            }
            axes.lastHorizontal = value
        }
        input.scrollAxes[source] = axes
        guard delta != .zero, delta.dx.isFinite, delta.dy.isFinite else { return }
        flushFrame()
        let scroll = ScrollInput(
            timestamp: eventTime(time), location: point(ex, ey),
            delta: Vector(dx: quantize(delta.dx), dy: quantize(delta.dy)), type: .continuous,
            zoom: modifiers & ModifierBits.control != 0)
        feed(.scroll(scroll), real: true)
    }

    /// The pointer left: every baseline is stale.
    func forgetScrollBaselines() {
        for key in input.scrollAxes.keys {
            input.scrollAxes[key]?.lastVertical = nil
            input.scrollAxes[key]?.lastHorizontal = nil
        }
    }
}
