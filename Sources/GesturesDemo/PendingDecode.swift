import CCairo
import Dispatch
import GestureImage

/// A JPEG decode running on another thread (``DemoImage``'s window decode, its 1/8 preview, or a
/// larger decode after a pinch): `result` is written before `group` is left, and read only after
/// waiting for it (`group.wait()`) or in `group.notify`'s block.
final class PendingDecode: @unchecked Sendable {
    let denominator: Int
    let group = DispatchGroup()
    /// Nil when the decode was skipped (no longer wanted when its turn came).
    var result: Result<OpaquePointer, ImageDecodingError>?

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
                    job.result = .success(try jpeg.decode(denominator: denominator, path: path))
                } catch {
                    job.result = .failure(error)
                }
            }
            job.group.leave()
        }
        return job
    }

    /// Lets the pixels go (a decode that ended but is not drawn).
    func discard() {
        if case .success(let s) = result { cairo_surface_destroy(s) }
        result = nil
    }
}
