import CCairo
import Dispatch
import GestureImage
import Synchronization

/// A JPEG decode running on another thread (``DemoImage``'s window decode, its 1/8 preview, or a
/// larger decode after a pinch): `result` is written before `group` is left, and read only after
/// waiting for it (`group.wait()`) or in `group.notify`'s block.
final class PendingDecode: @unchecked Sendable {
    let denominator: Int
    let group = DispatchGroup()
    /// Nil when the decode was skipped (no longer wanted when its turn came).
    var result: Result<OpaquePointer, ImageDecodingError>?
    /// The picture's cached copy, made on the decode thread right after a successful decode when
    /// ``makeCopyWhenDecoded(_:)`` asked for it before the decode ended (written, like `result`,
    /// before `group` is left).
    var copy: ScaledImageCache.Copy?

    /// Work for the decode thread after a successful decode: asked for (`.asked`) until the
    /// decode ends (then `.closed`: asked too late, the caller makes its copy itself).
    typealias MakeCopy = @Sendable (OpaquePointer) -> ScaledImageCache.Copy?
    private enum FollowUp {
        case open
        case asked(MakeCopy)
        case closed
    }
    private let followUp = Mutex(FollowUp.open)

    /// Asks the decode thread to make the picture's cached copy (`make`, given the decoded
    /// surface) as soon as the decode ends, so that the frame that first shows the picture only
    /// copies it into place. Only the first ask counts; an ask after the decode ended does
    /// nothing (``copy`` stays nil).
    func makeCopyWhenDecoded(_ make: @escaping MakeCopy) {
        followUp.withLock { state in
            if case .open = state { state = .asked(make) }
        }
    }

    private init(denominator: Int) { self.denominator = denominator }

    /// Decodes `jpeg` at 1/`denominator` on `queue` (by default a concurrent one, so that the
    /// window's decode and its preview run at once): `willStart` is called first, and the decode
    /// is skipped when `stillWanted` says no.
    static func start(
        _ jpeg: JPEGPicture, denominator: Int, path: String,
        on queue: DispatchQueue = .global(qos: .userInitiated),
        willStart: (@Sendable (Int) -> Void)? = nil,
        stillWanted: (@Sendable () -> Bool)? = nil
    ) -> PendingDecode {
        let job = PendingDecode(denominator: denominator)
        job.group.enter()
        queue.async {
            willStart?(denominator)
            if stillWanted?() ?? true {
                do throws(ImageDecodingError) {
                    let s = try jpeg.decode(denominator: denominator, path: path)
                    job.result = .success(s)
                    let make = job.followUp.withLock { state -> MakeCopy? in
                        defer { state = .closed }
                        if case .asked(let make) = state { return make }
                        return nil
                    }
                    job.copy = make?(s)
                } catch {
                    job.result = .failure(error)
                }
            }
            job.followUp.withLock { $0 = .closed }
            job.group.leave()
        }
        return job
    }

    /// Lets the pixels go (a decode that ended but is not drawn).
    func discard() {
        if case .success(let s) = result { cairo_surface_destroy(s) }
        result = nil
        if let copy { cairo_surface_destroy(copy.surface) }
        copy = nil
    }
}
