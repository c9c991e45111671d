import LecternCore

/// The colours the frame compositor draws with besides the pages' own, chosen by the contrast in
/// force (issue 30), so that what surrounds the pages follows them. One palette per contrast;
/// the compositor takes every colour of a frame from its scene's palette.
public struct Palette: Equatable, Sendable {
    /// A page where no tile is drawn yet, and the back of a sheet the page curl lifts.
    public var paper: Color

    public init(_ contrast: Contrast) {
        paper = contrast.paper
    }

    public static let normal = Palette(.normal)
}
