import Foundation
import LecternLinux
import Logging
import Synchronization
import Testing

@testable import LecternDocuments

/// The server's opening in two steps, as the render worker runs it: `open` (its answer goes to
/// the reader at once), then `finishOpening` once the worker's seccomp filter is in force.
@Suite("Document service: the server's opening")
struct DocumentServerOpeningTests {
    @Test(
        "a request asked once the open is answered is answered only after finishOpening: nothing is read or drawn before the worker's filter"
    )
    func requestsWaitForFinishOpening() throws {
        let server = DocumentServer(logger: Logger(label: "test"))
        let opened = server.open(
            path: DirectTransportTests.path("text-3pages.pdf"), password: nil, edits: [],
            limits: WorkerLimits(addressSpace: 0))
        guard case .opened = opened else {
            Issue.record("the document did not open: \(opened)")
            return
        }
        var writer = WireWriter()
        DocumentRequest.pageText(page: 0).encode(into: &writer)
        let request = writer.bytes
        let replies = Mutex<[[UInt8]]>([])
        let answered = DispatchSemaphore(value: 0)
        // A real thread, as a worker's channel thread.
        Thread.detachNewThread {
            server.answer(request, memory: { _, _ in nil }) { reply in
                replies.withLock { $0.append(reply) }
                return true
            }
            answered.signal()
        }
        // Until the request waits for the document (or, were it not held, is answered).
        while server.requestsWaiting == 0, replies.withLock({ $0.isEmpty }) { sched_yield() }
        #expect(replies.withLock { $0.isEmpty }, "no answer before finishOpening")
        server.finishOpening(preparePage: 0)
        answered.wait()
        let reply = try #require(replies.withLock { $0.first })
        var reader = WireReader(reply)
        let response = try DocumentResponse.decode(&reader)
        guard case .pageText(let blocks, _, _, _) = response else {
            Issue.record("not the page's text: \(response)")
            return
        }
        #expect(!blocks.isEmpty, "the page's text, read once the document was ready")
        #expect(server.requestsWaiting == 0)
    }
}
