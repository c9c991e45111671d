import Testing

@testable import LecternCore

/// The outline as an expandable list.
@Suite("Outline tree")
struct OutlineTreeTests {
    // A(0) [B(1) [C(2)] D(1)] E(0) [F(1)]
    let tree = OutlineTree([
        .init(title: "A", page: 0, depth: 0), .init(title: "B", page: 2, depth: 1),
        .init(title: "C", page: 3, depth: 2), .init(title: "D", page: 5, depth: 1),
        .init(title: "E", page: 8, depth: 0), .init(title: "F", page: nil, depth: 1),
    ])

    @Test func collapsedShowsTheTopLevel() {
        #expect(tree.visibleEntries(expanded: []) == [0, 4])
        #expect(tree.hasChildren(0) && tree.hasChildren(1) && !tree.hasChildren(2) && tree.hasChildren(4))
    }

    @Test func expandingShowsChildrenOnlyUnderExpandedAncestors() {
        #expect(tree.visibleEntries(expanded: [0]) == [0, 1, 3, 4])
        #expect(tree.visibleEntries(expanded: [0, 1]) == [0, 1, 2, 3, 4])
        #expect(tree.visibleEntries(expanded: [1]) == [0, 4], "B is open, but inside the closed A")
        #expect(tree.visibleEntries(expanded: [0, 1, 4]) == [0, 1, 2, 3, 4, 5])
    }

    @Test func theEntryOfAPage() {
        let all = [0, 1, 2, 3, 4, 5]
        #expect(tree.entry(forPage: 0, among: all) == 0)
        #expect(tree.entry(forPage: 4, among: all) == 2)
        #expect(tree.entry(forPage: 4, among: [0, 4]) == 0, "collapsed: the top-level entry")
        #expect(tree.entry(forPage: 99, among: all) == 4)
    }

    @Test func depthJumpsAreMended() {
        let odd = OutlineTree([.init(title: "A", page: 0, depth: 2), .init(title: "B", page: 1, depth: 5)])
        #expect(odd.entries.map(\.depth) == [0, 1])
    }
}
