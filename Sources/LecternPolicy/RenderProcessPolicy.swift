/// Where MuPDF draws the document's tiles and reads its pages' text (`render.process`): in
/// this process, on the render threads, or in the render worker process.
public struct RenderProcessPolicy: Sendable, Equatable {
    /// Whether tiles and page text come from the render worker process: yes unless
    /// `--render-process off` or the policy's `render.process = "off"` (in code as in the binary).
    public var isEnabled = true
    /// Seconds a request may take in the worker before it is killed and the page shows as
    /// undrawable (`--render-deadline`).
    public var deadline = 4.0
    /// The worker's address space limit (RLIMIT_AS) in bytes: above MuPDF's own cap (384 MiB),
    /// its threads' stacks and heaps, and the tile buffers.
    public var addressSpace = 2048 << 20
    /// The `lectern` executable the worker runs (nil: this process's own; tests name the built one).
    public var executable: String?
    /// Tests: milliseconds each render waits in the worker (to kill it mid-render).
    public var renderDelayMilliseconds = 0
    /// Tests: the page (0-based) whose render crashes the worker (-1: none).
    public var crashPage = -1

    public init() {}
}
