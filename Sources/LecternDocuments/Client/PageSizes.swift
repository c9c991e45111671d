import LecternCore
import LecternLinux
import LecternPDF

/// The real page count and page sizes of a document, read on the worker once its first page
/// is on screen (until then the view lays out the count the file claims, every page the size
/// of page 1).
public struct PageSizes: Sendable {
    /// The number of pages the page tree holds (the file may claim another).
    public var pageCount: Int
    /// The pages whose size differs from page 1's.
    public var updates: [(page: Int, geometry: PageGeometry)]
    /// Pages whose size could not be read (they keep the estimate).
    public var failures: Int
    public var milliseconds: Int64

    /// Walks the page tree (`pageTree`: its page count, nil when cancelled), then reads the
    /// pages' geometry 512 at a time (`infos`: nil for a page that cannot be read, or for a
    /// chunk), keeping those that differ from `estimate` (page 1), so a uniform document stores
    /// nothing per page. Nil when `cookie` was cancelled meanwhile.
    static func read(
        differingFrom estimate: PageGeometry, cookie: RenderCookie, pageTree: () -> Int?,
        infos: (Range<Int>) -> [PageInfo?]?
    ) -> PageSizes? {
        let start = ContinuousClock.now
        guard let pageCount = pageTree() else { return nil }
        var updates: [(page: Int, geometry: PageGeometry)] = []
        var failures = 0
        var next = 0
        while next < pageCount {
            if cookie.isCancelled { return nil }
            let range = next..<min(pageCount, next + 512)
            next = range.upperBound
            guard let infos = infos(range), infos.count == range.count else {
                failures += range.count
                continue
            }
            for (page, info) in zip(range, infos) {
                guard let info,
                    let geometry = try? PageGeometry(
                        mediaBox: info.mediaBox, cropBox: info.cropBox, rotation: info.rotation)
                else {
                    failures += 1
                    continue
                }
                if geometry != estimate { updates.append((page, geometry)) }
            }
        }
        return PageSizes(
            pageCount: pageCount, updates: updates, failures: failures,
            milliseconds: (ContinuousClock.now - start).milliseconds)
    }
}
