/// What the tests set about the render worker process beyond the policy's `render.*` keys
/// (`KioskConfiguration.usesRenderProcess`, `renderDeadline`, `renderAddressSpace`): no key
/// sets these.
public struct RenderProcessPolicy: Sendable, Equatable {
    /// The `lectern` executable the worker runs (nil: this process's own; tests name the built one).
    public var executable: String?
    /// Tests: milliseconds each render waits in the worker (to kill it mid-render).
    public var renderDelayMilliseconds = 0
    /// Tests: milliseconds the reader waits before it takes the worker's answer to the first
    /// open (to see what the window shows before the document is open).
    public var openAnswerDelayMilliseconds = 0
    /// Tests: the page (0-based) whose render crashes the worker (-1: none).
    public var crashPage = -1

    public init() {}
}
