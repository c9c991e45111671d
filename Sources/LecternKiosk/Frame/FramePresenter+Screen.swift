import LecternCore
import LecternWayland

extension FramePresenter {
    /// The frame buffers allocated (shared with the compositor), and how many it holds.
    var buffers: (allocated: Int, busy: Int) { (pool.count, pool.busyCount) }
    /// The registry names of the outputs the reader's window is on.
    var outputNames: Set<UInt32> { window.outputNames }
    /// The window's size in surface units (nil before the first configure).
    var windowSize: (width: Int, height: Int)? { window.size }
    /// Why the last frame dump could not be written (nil: none failed, or no `--frame-dump`).
    var frameDumpError: String? { dumper?.lastError }
    /// The size the compositor last asked for (larger than `windowSize` when it was too big).
    var requestedWindowSize: (width: Int, height: Int)? { window.requestedSize }

    /// Takes the screen's millimetres from the output the window is on, and says in the log
    /// what sizes the chrome needs there, and when the screen is too small for them.
    func measureScreen(_ display: Display) {
        let outputs = window.outputNames.sorted().compactMap { display.outputs[$0] }
        let output = outputs.first ?? (display.outputs.count == 1 ? display.outputs.values.first : nil)
        screen.outputMillimetres = output?.physicalLogicalSize.map { (Double($0.width), Double($0.height)) }
        let physical = screen.physical(policy.configuration)
        let mount = Double(policy.configuration.mountBottomMillimetres)
        guard physical != screen.measured || mount != screen.mountBottom else { return }
        screen.mountBottom = mount
        screen.measured = physical
        guard let physical else { return logger.info("screen: its size in millimetres is not known (screen.width-mm)") }
        let perMillimetre = screen.size.width / physical.width
        func pixels(_ millimetres: Double) -> Int { Int((millimetres * perMillimetre).rounded(.up)) }
        logger.info(
            "screen: \(physical): chrome text needs a capital H of \(pixels(physical.minimumCapitalHeight)) px, targets \(pixels(PhysicalScreen.minimumTarget)) px"
        )
        if let problem = physical.problem { logger.warning("\(problem)") }
        guard let reach = screen.reach else { return }
        let metrics = screen.metrics
        logger.info(
            "mount: the screen's bottom edge \(Int(mount)) mm above the floor: the controls stay \(metrics.reachTop) units below its top and \(metrics.reachBottom) above its bottom"
        )
        if let problem = reach.problem { logger.warning("mount: \(problem)") }
    }
}
