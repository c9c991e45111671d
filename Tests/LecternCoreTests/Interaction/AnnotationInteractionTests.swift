import Testing

@testable import LecternCore

/// A host with annotations on page 0 of `TestHost.paged()`'s layout (page 0 is 100 × 100
/// points shown 300 × 300 at view x 50: view = (50 + 3x, 300 − 3y)).
final class AnnotationHost: InteractionHost {
    var documentView: DocumentView
    var isUserInterfaceVisible = false
    var annotationsByPage: [Int: [AnnotationInfo]] = [:]
    var annotationSelection: AnnotationSelection?
    var edited: [Int] = []
    var moved: [(Int, Rect)] = []

    init() {
        documentView = TestHost.paged().documentView
        annotationsByPage[0] = [
            AnnotationInfo(objectNumber: 1, subtype: "Square", rect: Rect(x: 10, y: 40, width: 30, height: 20)),
            AnnotationInfo(
                objectNumber: 2, subtype: "Square", rect: Rect(x: 60, y: 40, width: 20, height: 20), flags: .locked),
            AnnotationInfo(objectNumber: 3, subtype: "FreeText", rect: Rect(x: 10, y: 80, width: 30, height: 10)),
            AnnotationInfo(
                objectNumber: 4, subtype: "Widget", rect: Rect(x: 60, y: 80, width: 30, height: 10), fieldType: .text),
        ]
    }

    func textBlocks(onPage page: Int) -> [Rect] { [] }
    func annotations(onPage page: Int) -> [AnnotationInfo] { annotationsByPage[page] ?? [] }
    func edit(_ annotation: AnnotationInfo, onPage page: Int) { edited.append(annotation.objectNumber) }
    func setRect(_ rect: Rect, of annotation: AnnotationInfo, onPage page: Int) {
        moved.append((annotation.objectNumber, rect))
    }

    /// The view point of page 0's point (x, y).
    static func view(_ x: Double, _ y: Double) -> (Double, Double) { (50 + 3 * x, 300 - 3 * y) }
}

@Suite("Annotation components")
struct AnnotationInteractionTests {
    func tap(_ controller: InteractionController, _ point: (Double, Double), at time: Double) {
        controller.tap(point.0, point.1, at: time)
        _ = controller.tick(now: time + 1)
    }

    func drag(_ controller: InteractionController, from: (Double, Double), by: (Double, Double), at time: Double) {
        controller.down(0, from.0, from.1, at: time)
        for step in 1...10 {
            let t = Double(step) / 10
            controller.move(0, from.0 + by.0 * t, from.1 + by.1 * t, at: time + t * 0.2)
        }
        controller.up(0, at: time + 0.3)
    }

    @Test func aTapSelectsAndATapElsewhereDeselects() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        var calls: [String] = []
        controller.selectAnnotation.addActivationCallback { context, _, _ in
            calls.append("select \(context.annotation.objectNumber)")
        }
        controller.deselectAnnotation.addActivationCallback { _, _, _ in calls.append("deselect") }
        tap(controller, AnnotationHost.view(20, 50), at: 0)
        #expect(host.annotationSelection?.annotation.objectNumber == 1)
        tap(controller, AnnotationHost.view(50, 20), at: 2)
        #expect(host.annotationSelection == nil)
        #expect(calls == ["select 1", "deselect"])
        #expect(!host.documentView.isAnimating, "the tap that deselected turned no page")
    }

    @Test func aFalseConditionBlocksSelectionAndItsCallbacks() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        var called = false
        controller.selectAnnotation.addActivationCondition { context, _, _ in context.annotation.subtype != "Square" }
        controller.selectAnnotation.addActivationCallback { _, _, _ in called = true }
        tap(controller, AnnotationHost.view(20, 50), at: 0)
        #expect(host.annotationSelection == nil && !called)
        #expect(
            controller.tryToSelectAnnotation(at: Point(x: 20, y: 50), in: .page(0)), "the default ignores conditions")
        #expect(host.annotationSelection?.annotation.objectNumber == 1 && !called)
    }

    @Test func dragMovesTheSelectionInsideThePage() throws {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        tap(controller, AnnotationHost.view(20, 50), at: 0)
        // 10 points right and 5 up; then far to the left: it stops at the page's edge.
        drag(controller, from: AnnotationHost.view(25, 50), by: (30, -15), at: 2)
        let (object, rect) = try #require(host.moved.last)
        #expect(object == 1 && abs(rect.minX - 20) < 0.01 && abs(rect.minY - 45) < 0.01 && rect.width == 30)
        #expect(host.documentView.contentOffset == TestHost.paged().documentView.contentOffset, "the page did not pan")
        // From its middle (a corner's handle would resize it).
        drag(controller, from: AnnotationHost.view(35, 55), by: (-300, 0), at: 4)
        #expect(
            host.moved.count == 2 && host.moved.last.map { abs($0.1.minX) < 0.01 && $0.1.width == 30 } == true,
            "kept inside the page: \(host.moved)")
    }

    @Test func dragFromAHandleResizes() throws {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        tap(controller, AnnotationHost.view(20, 50), at: 0)
        // The corner at (40, 40), dragged 10 points right and 10 down.
        drag(controller, from: AnnotationHost.view(40, 40), by: (30, 30), at: 2)
        let rect = try #require(host.moved.last?.1)
        #expect(abs(rect.minX - 10) < 0.01 && abs(rect.maxX - 50) < 0.01)
        #expect(abs(rect.minY - 30) < 0.01 && abs(rect.maxY - 60) < 0.01)
    }

    @Test func aLockedAnnotationIsNotMoved() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        tap(controller, AnnotationHost.view(70, 50), at: 0)
        #expect(host.annotationSelection?.annotation.objectNumber == 2)
        #expect(!controller.transformAnnotation.canActivate(at: Point(x: 70, y: 50), in: .page(0)))
        drag(controller, from: AnnotationHost.view(70, 50), by: (-60, 0), at: 2)
        #expect(host.moved.isEmpty)
    }

    @Test func aTapEditsAFieldAndADoubleTapANote() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        tap(controller, AnnotationHost.view(70, 85), at: 0)
        #expect(host.edited == [4], "one tap fills a form field")
        tap(controller, AnnotationHost.view(20, 85), at: 2)
        #expect(host.edited == [4] && host.annotationSelection?.annotation.objectNumber == 3, "one tap selects a note")
        tap(controller, AnnotationHost.view(50, 20), at: 3)
        #expect(host.annotationSelection == nil)
        let (x, y) = AnnotationHost.view(20, 85)
        controller.tap(x, y, at: 4)
        controller.tap(x, y, at: 4.15)
        #expect(host.edited == [4, 3], "a double tap edits it")
        #expect(host.documentView.zoomScale == 1, "and does not zoom")
    }
}

/// The default actions an integrator calls (`tryTo…`): each does what it says, or returns false.
@Suite("Annotation components' default actions")
struct AnnotationDefaultActionTests {
    func tap(_ controller: InteractionController, _ point: (Double, Double), at time: Double) {
        controller.tap(point.0, point.1, at: time)
        _ = controller.tick(now: time + 1)
    }

    @Test func deselectClearsTheSelectionOnlyAwayFromIt() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        #expect(!controller.tryToDeselectAnnotation(at: Point(x: 50, y: 20), in: .page(0)), "nothing is selected")
        tap(controller, AnnotationHost.view(20, 50), at: 0)
        #expect(!controller.tryToDeselectAnnotation(at: Point(x: 20, y: 50), in: .page(0)), "on the selection")
        #expect(host.annotationSelection?.annotation.objectNumber == 1)
        #expect(controller.tryToDeselectAnnotation(at: Point(x: 50, y: 20), in: .page(0)))
        #expect(host.annotationSelection == nil)
    }

    @Test func transformWithoutADragDoesNothingAndSaysSo() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        tap(controller, AnnotationHost.view(20, 50), at: 0)
        #expect(!controller.tryToTransformAnnotation(at: Point(x: 25, y: 50), in: .page(0)), "no drag in progress")
        #expect(host.moved.isEmpty && host.annotationSelection?.annotation.rect.minX == 10)
    }

    @Test func transformFromToMovesOrResizesTheSelection() throws {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        #expect(!controller.tryToTransformAnnotation(from: Point(x: 25, y: 50), to: Point(x: 35, y: 45), in: .page(0)))
        tap(controller, AnnotationHost.view(20, 50), at: 0)
        // Its body: moved 10 points right and 5 down.
        #expect(controller.tryToTransformAnnotation(from: Point(x: 25, y: 50), to: Point(x: 35, y: 45), in: .page(0)))
        let moved = try #require(host.moved.last)
        #expect(moved.0 == 1 && abs(moved.1.minX - 20) < 0.01 && abs(moved.1.minY - 35) < 0.01 && moved.1.width == 30)
        #expect(host.annotationSelection?.annotation.rect == moved.1)
        // The corner at (50, 35) now: 10 points right resizes it.
        #expect(controller.tryToTransformAnnotation(from: Point(x: 50, y: 35), to: Point(x: 60, y: 35), in: .page(0)))
        #expect(host.moved.last.map { abs($0.1.width - 40) < 0.01 && abs($0.1.minX - 20) < 0.01 } == true)
        // Off the selection, or no travel: nothing.
        #expect(!controller.tryToTransformAnnotation(from: Point(x: 90, y: 10), to: Point(x: 95, y: 10), in: .page(0)))
        #expect(!controller.tryToTransformAnnotation(from: Point(x: 30, y: 45), to: Point(x: 30, y: 45), in: .page(0)))
        #expect(host.moved.count == 2)
    }

    @Test func transformFromToLeavesALockedAnnotation() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        tap(controller, AnnotationHost.view(70, 50), at: 0)
        #expect(host.annotationSelection?.annotation.objectNumber == 2)
        #expect(!controller.tryToTransformAnnotation(from: Point(x: 70, y: 50), to: Point(x: 20, y: 50), in: .page(0)))
        #expect(host.moved.isEmpty)
    }

    @Test func editStartsFillingAFieldAndNothingElsewhere() {
        let host = AnnotationHost()
        let controller = InteractionController(host: host)
        #expect(controller.tryToEditAnnotation(at: Point(x: 70, y: 85), in: .page(0)))
        #expect(host.edited == [4])
        #expect(controller.tryToEditAnnotation(at: Point(x: 20, y: 85), in: .page(0)), "a note, as a double tap would")
        #expect(host.edited == [4, 3])
        #expect(!controller.tryToEditAnnotation(at: Point(x: 50, y: 20), in: .page(0)), "no annotation there")
        #expect(!controller.tryToEditAnnotation(at: Point(x: 20, y: 50), in: .page(0)), "a square is not edited")
        #expect(host.edited == [4, 3])
    }

    @Test func openLinkFollowsTheLinkAndNothingElsewhere() {
        let host = TestHost.paged()
        host.links[0] = [(Rect(x: 10, y: 10, width: 30, height: 10), .page(2))]
        let controller = InteractionController(host: host)
        #expect(!controller.tryToOpenLinkAnnotation(at: Point(x: 60, y: 60), in: .page(0)))
        #expect(host.followed.isEmpty)
        #expect(controller.tryToOpenLinkAnnotation(at: Point(x: 20, y: 15), in: .page(0)))
        #expect(host.followed == [.page(2)] && host.documentView.dominantPage() == 2)
    }
}
