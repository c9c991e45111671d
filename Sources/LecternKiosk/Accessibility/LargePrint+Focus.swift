import LecternCore

extension LargePrint {
    /// What the keypad's focus goes through in the column, in its order: each paragraph, then
    /// the links on its lines, where they are on screen now (surface units: above or below the
    /// screen when the column is scrolled away from them). A link's label comes from `link`
    /// (its index on the page and its words). Empty while the column is being laid out or
    /// the page shows instead.
    func focusItems(link: (Int, String) -> String) -> [FocusItem] {
        guard coversPage, let column = shown?.column, !column.lines.isEmpty else { return [] }
        let top = Double(margin) - offset
        let links = linkBoxes()
        var items: [FocusItem] = []
        var first = 0
        while first < column.lines.count {
            let paragraph = column.lines[first].paragraph
            var last = first
            while last + 1 < column.lines.count, column.lines[last + 1].paragraph == paragraph { last += 1 }
            let lines = column.lines[first...last]
            // A little wider than the lines, so that the ring does not touch the letters.
            let box = Rect(
                x: Double(left - 8), y: top + Double(lines.first!.top), width: Double(column.width + 16),
                height: Double(lines.last!.top - lines.first!.top + column.lineAdvance))
            items.append(FocusItem(kind: .text, label: lines.map(\.text).joined(separator: " "), rect: box))
            for (piece, placed) in zip(column.links, links) where (first...last).contains(piece.line) {
                let words = String(Array(column.lines[piece.line].text)[piece.range])
                items.append(FocusItem(kind: .link, label: link(placed.index, words), rect: placed.box))
            }
            first = last + 1
        }
        return items
    }

    /// Whether the page's column is laid out (or the page shows instead): the focus can go to
    /// its first item.
    func isReady(forPage page: Int) -> Bool {
        !coversPage || shown?.key.page == page
    }

    /// Scrolls the column so that `rect` (surface units, as `focusItems` gives) is on screen,
    /// its top a margin below the screen's top when it is taller than the screen.
    func scrollToShow(_ rect: Rect) {
        let low = Double(margin), high = Double(screen.height - margin)
        if rect.minY < low || rect.height > high - low {
            scroll(by: rect.minY - low)
        } else if rect.maxY > high {
            scroll(by: rect.maxY - high)
        }
    }

    /// A tap at `point` (surface units) as a finger's: follows the link there.
    func tap(at point: Point, reader: Reader, time: Double) {
        let id = KeypadFocus.keypadTouch
        _ = handle(InputEvent(.touchDown(id: id, location: point), time: time), reader: reader)
        _ = handle(InputEvent(.touchUp(id: id), time: time), reader: reader)
    }
}
