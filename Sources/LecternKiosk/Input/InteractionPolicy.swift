import Glibc
import LecternCore
import LecternPolicy

/// The policy's declarative rules as activation conditions on the interaction controller's
/// components: which components act, how far a double tap zooms,
/// and which links a tap follows. Each condition reads the policy in force when it is
/// evaluated, so a policy change applies to the next gesture without rebuilding the controller;
/// an integrator's own conditions (`KioskApp.configureInteractions`, added after these) still
/// compose with them.
enum InteractionPolicy {
    /// Adds the policy's conditions to `controller`'s components; `inForce` gives the policy in
    /// force, `current` the open document.
    static func install(
        on controller: InteractionController, current: CurrentReader, policy inForce: PolicyInForce
    ) {
        let policy = { [unowned inForce] in inForce.configuration }
        let annotationComponents = [
            controller.selectAnnotation, controller.deselectAnnotation, controller.transformAnnotation,
            controller.editAnnotation,
        ]
        for component in annotationComponents {
            let name = component.name
            component.addActivationCondition { _, _, _ in policy().enables(name) }
        }
        AnnotationPolicy.install(on: controller, policy: policy)
        for component in [controller.selectText, controller.deselectText] {
            let name = component.name
            component.addActivationCondition { _, _, _ in policy().enables(name) }
        }
        controller.openLinkAnnotation.addActivationCondition { context, _, _ in
            policy().enables("openLinkAnnotation") && allows(context.target, policy())
        }
        // The zones' width is the controller's configuration (`InputRouter` keeps it as the policy says).
        controller.fastScroll.addActivationCondition { _, _, _ in policy().enables("fastScroll") }
        controller.smartZoom.addActivationCondition { [unowned current] context, _, _ in
            let rules = policy()
            guard rules.enables("smartZoom"), rules.doubleTapZoom else { return false }
            guard !context.zoomsOut, let view = current.reader?.view, context.targetRect.width > 0 else { return true }
            let scale = view.currentZoomScale * view.viewportSize.width / context.targetRect.width
            return scale <= rules.maximumZoom + 1e-6
        }
        controller.keyCommand.addActivationCondition { _, _, _ in policy().enables("keyCommand") }
        controller.wheelScroll.addActivationCondition { _, _, _ in policy().enables("wheelScroll") }
        for component in [controller.chromeButton, controller.thumbnail, controller.scrubber, controller.pinchToGrid] {
            let name = component.name
            component.addActivationCondition { _, _, _ in policy().enables(name) }
        }
        controller.toggleUserInterface.addActivationCondition { _, _, _ in
            policy().enables("toggleUserInterface") && policy().chrome == .onTap
        }
    }

    /// Whether a tap follows `target` under `policy`.
    static func allows(_ target: LinkTarget, _ policy: KioskConfiguration) -> Bool {
        switch (target, policy.links) {
        case (_, .none): false
        case (.page, _): true
        case (.uri, .internal): false
        case (.uri, .qr): true
        case (.uri(let address), .allowList):
            policy.allowedLinks.contains { fnmatch($0, address, 0) == 0 }
        }
    }
}
