/// What the render worker limits itself to before it opens the document.
public struct WorkerLimits: Sendable, Equatable {
    /// RLIMIT_AS in bytes (0: unlimited).
    public var addressSpace: Int
    /// Tests: milliseconds each render waits first (0: none), so a test can kill it mid-render.
    public var renderDelayMilliseconds: Int
    /// Tests: the page (0-based) whose render crashes the worker with SIGSEGV (-1: none), as a
    /// page MuPDF crashes on would; `WorkerLimits.crashesOpening`: it crashes opening the file.
    public var crashPage: Int
    /// `crashPage` for a worker that crashes as it opens the document (a file MuPDF's parser
    /// crashes on).
    public static let crashesOpening = -2
    /// Whether the worker installs its seccomp filter once the document is open (a worker that
    /// saves a copy does not: it writes a file).
    public var isFiltered: Bool
    /// How much nicer than the reader the worker runs (`nice(2)`; 0: as the reader): an audit's
    /// worker yields the cores to the reader's.
    public var niceness: Int

    public init(
        addressSpace: Int, renderDelayMilliseconds: Int = 0, crashPage: Int = -1, isFiltered: Bool = true,
        niceness: Int = 0
    ) {
        self.addressSpace = addressSpace
        self.renderDelayMilliseconds = renderDelayMilliseconds
        self.crashPage = crashPage
        self.isFiltered = isFiltered
        self.niceness = niceness
    }
}
