import LecternLinux
import Logging

/// Files the kiosk follows (the policy file, the documents): one inotify descriptor on the
/// event loop, watching each file's directory, and per file a quiet period on the loop's clock
/// that starts over with every change, so a file is read once its writes have stopped. A file
/// renamed over the path is complete at once: it waits only `renameQuietPeriod`, long enough
/// to take a deploy tool's burst of renames together.
///
/// The directory, not the file, is watched: an atomic replace (write a temporary file, rename
/// it over) gives the path a new inode, which a watch on the old inode would never see.
final class FileWatcher {
    /// A followed file; `cancel()` stops following it.
    final class Subscription {
        fileprivate let path: String
        fileprivate let directory: String
        fileprivate let name: String
        fileprivate let quietPeriod: Double
        fileprivate let onChange: () -> Void
        fileprivate var timer: EventLoop.Timer?
        fileprivate weak var watcher: FileWatcher?

        fileprivate init(path: String, quietPeriod: Double, onChange: @escaping () -> Void) {
            self.path = path
            let slash = path.lastIndex(of: "/")
            directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            self.quietPeriod = quietPeriod
            self.onChange = onChange
        }

        /// Stops following the file.
        func cancel() {
            timer?.cancel()
            timer = nil
            watcher?.subscriptions.removeAll { $0 === self }
        }
    }

    /// The wait after a rename onto a followed path, on the loop's clock.
    static let renameQuietPeriod = 0.05

    let loop: EventLoop
    private let logger: Logger
    private let inotify: Inotify
    private var descriptorWatch: EventLoop.Watch?
    private var subscriptions: [Subscription] = []
    /// The watch number of each directory watched.
    private var directories: [String: Int32] = [:]

    init(loop: EventLoop, logger: Logger) throws(SystemError) {
        self.loop = loop
        self.logger = logger
        inotify = try Inotify()
        descriptorWatch = loop.watch(inotify.descriptor) { [unowned self] in handleEvents() }
    }

    /// Calls `onChange` on the loop once `path` changed (written, replaced, created or deleted)
    /// and then stayed unchanged for `quietPeriod` seconds of the loop's clock
    /// (`renameQuietPeriod` after a rename onto it).
    func follow(_ path: String, quietPeriod: Double, _ onChange: @escaping () -> Void) -> Subscription {
        let subscription = Subscription(path: path, quietPeriod: quietPeriod, onChange: onChange)
        subscription.watcher = self
        subscriptions.append(subscription)
        watchDirectory(subscription.directory)
        return subscription
    }

    /// Whether a change was seen and its quiet period has not ended yet.
    var hasPendingChanges: Bool { subscriptions.contains { $0.timer?.isScheduled == true } }

    /// Stops following everything (shutdown).
    func close() {
        for subscription in subscriptions { subscription.timer?.cancel() }
        subscriptions = []
        descriptorWatch?.cancel()
        descriptorWatch = nil
    }

    private func watchDirectory(_ directory: String) {
        do {
            directories[directory] = try inotify.watch(directory: directory)
        } catch {
            logger.warning("cannot follow changes in \(directory): \(error)")
        }
    }

    private func handleEvents() {
        for event in inotify.read() {
            for subscription in subscriptions where directories[subscription.directory] == event.watch {
                guard event.isWatchLost || event.name == subscription.name else { continue }
                if event.isWatchLost {
                    // The directory went away or events were lost: watch it again (if it is back).
                    directories[subscription.directory] = nil
                    watchDirectory(subscription.directory)
                }
                subscription.timer?.cancel()
                let wait =
                    event.isRenamedOver
                    ? min(Self.renameQuietPeriod, subscription.quietPeriod) : subscription.quietPeriod
                subscription.timer = loop.schedule(after: wait) { [unowned subscription] in
                    subscription.timer = nil
                    subscription.onChange()
                }
            }
        }
    }
}
