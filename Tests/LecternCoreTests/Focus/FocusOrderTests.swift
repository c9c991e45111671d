import Testing

@testable import LecternCore

@Suite("Keypad focus: order, cursor, keys")
struct FocusOrderTests {
    private func block(_ text: String, x: Double, y: Double, lines: Int = 2) -> ReadingBlock {
        ReadingBlock(
            text: text, lines: (0..<lines).map { Rect(x: x, y: y + Double($0) * 14, width: 200, height: 12) })
    }

    private func extra(_ label: String, _ kind: FocusItem.Kind, x: Double, y: Double) -> FocusItem {
        FocusItem(kind: kind, label: label, rect: Rect(x: x, y: y, width: 60, height: 12))
    }

    @Test("a link goes after the paragraph it sits in; a field on its own where reading order puts it")
    func placement() {
        // Two columns (y down, the identity as display): left A then B, right C as tall as both.
        let blocks = [block("A", x: 50, y: 50), block("B", x: 50, y: 150), block("C", x: 320, y: 50, lines: 12)]
        let extras = [
            extra("link in C", .link, x: 330, y: 52),
            extra("field under B", .field, x: 50, y: 190),
            extra("link in A", .link, x: 60, y: 64),
        ]
        let items = FocusOrder.items(onPage: 3, blocks: blocks, extras: extras)
        #expect(items.map(\.label) == ["A", "link in A", "B", "field under B", "C", "link in C"])
        #expect(items.allSatisfy { $0.page == 3 })
        #expect(items.map(\.kind) == [.text, .link, .text, .field, .text, .link])
    }

    @Test("a field above every paragraph comes first")
    func before() {
        let items = FocusOrder.items(
            onPage: 0, blocks: [block("A", x: 50, y: 200)], extras: [extra("top", .field, x: 50, y: 10)])
        #expect(items.map(\.label) == ["top", "A"])
    }

    @Test("the cursor starts at either end and wraps both ways")
    func cursor() {
        var cursor = FocusCursor()
        cursor.move(by: 1, count: 3)
        #expect(cursor.index == 0)
        cursor.move(by: -1, count: 3)
        #expect(cursor.index == 2)
        cursor.move(by: 1, count: 3)
        #expect(cursor.index == 0)
        var back = FocusCursor()
        back.move(by: -1, count: 3)
        #expect(back.index == 2)
        back.clamp(to: 2)
        #expect(back.index == 1)
        back.move(by: 1, count: 0)
        #expect(back.index == nil)
    }

    @Test("keypad keys always navigate; arrows, Enter and Escape only while the focus shows")
    func keys() {
        #expect(KeypadCommand.command(for: .keypad(2), isFocusShown: false) == .next)
        #expect(KeypadCommand.command(for: .keypad(8), isFocusShown: false) == .previous)
        #expect(KeypadCommand.command(for: .keypad(5), isFocusShown: true) == .select)
        #expect(KeypadCommand.command(for: .keypad(0), isFocusShown: true) == .back)
        #expect(KeypadCommand.command(for: .keypad(4), isFocusShown: false) == .pageLeft)
        #expect(KeypadCommand.command(for: .other(0xFFBE), isFocusShown: true) == nil, "F1 is the narrator's")
        #expect(KeypadCommand.command(for: .other(0x2A), isFocusShown: false) == .help)  // *
        #expect(KeypadCommand.command(for: .keypad(1), isFocusShown: true) == nil)
        #expect(KeypadCommand.command(for: .down, isFocusShown: false) == nil)
        #expect(KeypadCommand.command(for: .down, isFocusShown: true) == .next)
        #expect(KeypadCommand.command(for: .enter, isFocusShown: false) == nil)
        #expect(KeypadCommand.command(for: .escape, isFocusShown: true) == .back)
        #expect(KeypadCommand.command(for: .digit(2), isFocusShown: true) == nil)
    }

    @Test("a key map by keysym names: a remapped key navigates; a reader's key only while the focus shows")
    func keyMap() {
        #expect(KeypadKeyMap.key(named: "KP_8") == .keypad(8))
        #expect(KeypadKeyMap.key(named: "F2") == .other(0xFFBF))
        #expect(KeypadKeyMap.key(named: "space") == .space)
        #expect(KeypadKeyMap.key(named: "q") == .other(0x71))
        #expect(KeypadKeyMap.key(named: "7") == .digit(7))
        #expect(KeypadKeyMap.key(named: "F13") == nil)
        #expect(KeypadKeyMap.key(named: "Kp_8") == nil)
        var map = KeypadKeyMap.standard
        map.keys[.next] = [.other(0xFFBF), .space]
        #expect(map.command(for: .other(0xFFBF), isFocusShown: false) == .next, "F2 starts the focus")
        #expect(map.command(for: .space, isFocusShown: false) == nil, "Space is the reader's while the focus is off")
        #expect(map.command(for: .space, isFocusShown: true) == .next)
        #expect(map.command(for: .keypad(2), isFocusShown: true) == nil, "2 no longer moves")
        #expect(map.command(for: .keypad(8), isFocusShown: true) == .previous)
    }

    @Test("help says where the focus is and what the keys do")
    func help() {
        let item = FocusItem(kind: .button, label: "Search", rect: .zero)
        let page = FocusPhrases.help(level: .page, position: "Page 2 of 5", item: item, index: 3, count: 9)
        #expect(page.hasPrefix("Page 2 of 5; item 4 of 9: Search, button. Up and down"))
        let search = FocusPhrases.help(level: .search, position: "Page 2 of 5", item: nil, index: nil, count: 0)
        #expect(search.hasPrefix("Search is open, over page 2 of 5. "))
        #expect(search.contains("closes it"))
        let shelf = FocusPhrases.help(level: .shelf, position: "", item: item, index: 0, count: 3)
        #expect(shelf.hasPrefix("The shelf; item 1 of 3: Search, button. "))
    }
}
