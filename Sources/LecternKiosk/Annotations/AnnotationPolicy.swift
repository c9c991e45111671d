import LecternCore
import LecternPolicy

/// The policy's annotation rules as activation conditions on the annotation components: each
/// reads the policy in force when it is evaluated (an integrator's own conditions still compose).
enum AnnotationPolicy {
    static func install(on controller: InteractionController, policy: @escaping () -> KioskConfiguration) {
        controller.selectAnnotation.addActivationCondition { context, _, _ in
            policy().annotations.allows(.select, context.annotation)
        }
        controller.transformAnnotation.addActivationCondition { context, _, _ in
            policy().annotations.allows(.move, context.annotation)
        }
        controller.editAnnotation.addActivationCondition { context, _, _ in
            policy().annotations.allows(.edit, context.annotation)
        }
    }
}
