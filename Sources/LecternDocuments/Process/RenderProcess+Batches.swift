import Glibc
import LecternLinux
import LecternPDF

/// Batches of tiles through the render worker: one request on a channel, the tiles drawn into
/// the channel's buffer (each at its offset) and answered one by one, so the worker draws the
/// next tile while the reader copies the last one out, and no round trip waits between them.
/// Each tile is a request of its own to the deadline watchdog (its deadline starts when the one
/// before it was answered). A batch goes only while no page is suspected of crashing the worker;
/// after a death, the tiles not answered are asked again one by one (`exchange`), where the
/// blame and the restarts are.
extension RenderProcess {
    public func exchangeBatch(
        _ request: [UInt8], batch: TileBatch, cookies: [RenderCookie], read: (Int, [UInt8], TileSlot) -> Void
    ) -> Int {
        let pages = batch.tiles.map(\.key.page)
        guard !pages.isEmpty else { return 0 }
        lock.lock()
        // A suspect goes alone and the others wait behind it (`waitForTurn`): one by one then.
        guard state.isolating == nil, state.waitingSuspects == 0, state.suspects.isDisjoint(with: pages),
            state.undrawable.isDisjoint(with: pages), let worker = runningWorker()
        else {
            lock.unlock()
            return 0
        }
        let channel = worker.takeChannel(lock)
        var current: UInt64? = begin(page: pages[0], on: worker)
        lock.unlock()
        events.signal()

        var answered = 0
        var died = false
        sending: do {
            guard let buffer = try? channel.tileBuffer(),
                batch.tiles.allSatisfy({
                    TileSlot(buffer: buffer, offset: $0.offset, isOwn: false).fits(
                        stride: $0.stride, height: $0.key.rect.height)
                })
            else { break sending }
            guard receiveOpenAnswer(on: channel, of: worker) else {
                died = true
                break sending
            }
            // The worker did not open the document: each tile alone says why.
            guard worker.openError == nil else { break sending }
            let shared = batch.tiles.map { RenderCookie(clearing: buffer.memory + $0.offset) }
            // The channel's buffer goes with its first request; the mappings keep it after.
            guard channel.socket.send(request, fd: channel.bufferSent ? -1 : buffer.fd) else {
                died = true
                break sending
            }
            channel.bufferSent = true
            buffer.closeDescriptor()
            while answered < pages.count {
                // A tile no longer wanted is cancelled through its shared cookie: the worker skips
                // it if it has not begun it.
                repeat {
                    for index in answered..<pages.count where cookies[index].isCancelled && !shared[index].isCancelled {
                        shared[index].cancel()
                    }
                } while !channel.socket.waitReadable(milliseconds: 5)
                guard let (answer, fd) = channel.socket.receive() else {
                    died = true
                    break sending
                }
                if fd >= 0 { close(fd) }
                let slot = TileSlot(buffer: buffer, offset: batch.tiles[answered].offset, isOwn: false)
                read(answered, answer, slot)
                answered += 1
                // Anything but a tile (a failure) ends the batch.
                let ends = answer.first != DocumentResponse.Tag.drawn.rawValue
                lock.lock()
                if let id = current { end(id) }
                current = answered < pages.count && !ends ? begin(page: pages[answered], on: worker) : nil
                lock.unlock()
                events.signal()
                if ends { break }
            }
        }

        lock.lock()
        if let id = current {
            end(id)
            if died { workerDied(worker, page: pages[answered]) }
        }
        worker.returnChannel(channel, lock)
        lock.unlock()
        events.signal()
        return answered
    }

    /// A request about `page` is in flight in `worker`, for the watchdog (`lock` held).
    func begin(page: Int, on worker: Worker) -> UInt64 {
        let id = state.nextID
        state.nextID += 1
        state.inFlight[id] = (page, worker)
        state.started.append(id)
        return id
    }

    /// Request `id` ended (`lock` held); whether it had overrun its deadline.
    @discardableResult
    func end(_ id: UInt64) -> Bool {
        state.inFlight[id] = nil
        state.finished.append(id)
        return state.expired.remove(id) != nil
    }
}
