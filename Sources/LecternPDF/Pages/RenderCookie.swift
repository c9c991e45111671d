import CMuPDF

/// Lets another thread cancel a render or a page tree walk in progress (MuPDF's `fz_cookie.abort`).
///
/// Owns one `CMuPDF_cookie` (C heap), freed in `deinit`. Use one cookie for one render
/// at a time; once cancelled it stays cancelled, so every later render with it throws `.cancelled`.
public final class RenderCookie: @unchecked Sendable {
    // Sendable: the C struct is only written through atomic stores (cancel) and by the one render using it.
    let handle: OpaquePointer
    private let isOwned: Bool

    public init() {
        guard let handle = CMuPDF_cookie_new() else { fatalError("out of memory allocating a render cookie") }
        self.handle = handle
        isOwned = true
    }

    /// A cleared cookie placed in `memory`, which the caller owns and keeps alive while this
    /// cookie is used: memory shared with the render worker process, so that the reader cancels
    /// a render in the worker by writing to it. `memory` holds at least `sharedByteCount` bytes,
    /// 8-byte aligned.
    public init(clearing memory: UnsafeMutableRawPointer) {
        handle = CMuPDF_cookie_at(memory)
        isOwned = false
    }

    /// A cookie placed in `memory` by `init(clearing:)` (perhaps in another process), kept as it is.
    public init(sharedAt memory: UnsafeMutableRawPointer) {
        handle = OpaquePointer(memory)
        isOwned = false
    }

    /// The bytes `init(clearing:)` uses.
    public static var sharedByteCount: Int { CMuPDF_cookie_size() }

    deinit { if isOwned { CMuPDF_cookie_drop(handle) } }

    /// Asks the render using this cookie to stop as soon as it can. Any thread.
    /// Corresponding C function: `CMuPDF_cookie_abort`.
    public func cancel() { CMuPDF_cookie_abort(handle) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { CMuPDF_cookie_is_aborted(handle) != 0 }

    /// How far the render using this cookie has got (display-list items run; 0 before it starts
    /// drawing). Any thread. Corresponding C field: `fz_cookie.progress`.
    public var progress: Int { Int(CMuPDF_cookie_progress(handle)) }
}
