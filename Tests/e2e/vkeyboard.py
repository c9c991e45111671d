#!/usr/bin/env python3
"""A virtual keyboard for wlroots compositors (zwp_virtual_keyboard_v1), driven from stdin.

Usage: vkeyboard.py < COMMANDS

Connects to $WAYLAND_DISPLAY, creates one virtual keyboard on the first wl_seat, gives it
a keymap of its own (below), prints "virtual keyboard ready" and then reads one command per
line until end of input:
  key NAME          NAME pressed and released
  press NAME        NAME pressed
  release NAME      NAME released
  hold NAME SECONDS NAME pressed, released SECONDS later (the client repeats a held key
                    itself, at the rate and delay the compositor tells it)
Each event is sent with a CLOCK_MONOTONIC millisecond timestamp (the clock sway's own events
use) as soon as its command is read. Exits 2 on an unknown command or key name, 1 with a
message on a protocol error.

NAME is an xkb keysym name: Escape, Return, space, BackSpace, Tab, Up, Down, Left, Right,
Home, End, Page_Up, Page_Down, F1 to F12, Help, asterisk, minus, equal, 0 to 9, a to z,
KP_0 to KP_9, KP_Enter, KP_Add, KP_Subtract, KP_Multiply. The keymap gives each of them one
key (one level: no Shift, no Num Lock), on its evdev key code (KP_2 on KEY_KP2, Help on
KEY_HELP), asterisk on KEY_F13's, which it does not otherwise use.

Why: under sway's headless backend (WLR_LIBINPUT_NO_DEVICES=1) the seat has no keyboard, and
`swaymsg` cannot type. A virtual keyboard is a real input device on the seat (`swaymsg -t
get_inputs` lists it): its keys go through sway's keyboard code to the focused window, with
the keymap sent here. Only the standard library: the Wayland wire protocol is written by hand
(wlwire.py, beside this file).
"""

import os
import struct
import sys
import time

from wlwire import Connection, now_ms

# Request opcodes, in the order of the protocol XML.
MANAGER_CREATE_VIRTUAL_KEYBOARD = 0
KEYBOARD_KEYMAP, KEYBOARD_KEY = 0, 1
KEYMAP_FORMAT_XKB_V1 = 1
KEY_RELEASED, KEY_PRESSED = 0, 1
MANAGER_INTERFACE = "zwp_virtual_keyboard_manager_v1"

# Keysym name: evdev key code (linux/input-event-codes.h).
KEYS = {
    "Escape": 1, "minus": 12, "equal": 13, "BackSpace": 14, "Tab": 15, "Return": 28, "space": 57,
    "KP_Multiply": 55, "KP_7": 71, "KP_8": 72, "KP_9": 73, "KP_Subtract": 74, "KP_4": 75,
    "KP_5": 76, "KP_6": 77, "KP_Add": 78, "KP_1": 79, "KP_2": 80, "KP_3": 81, "KP_0": 82,
    "F11": 87, "F12": 88, "KP_Enter": 96, "Home": 102, "Up": 103, "Page_Up": 104, "Left": 105,
    "Right": 106, "End": 107, "Down": 108, "Page_Down": 109, "Help": 138, "asterisk": 183,
}
KEYS.update({str(digit): 2 + (digit + 9) % 10 for digit in range(10)})  # 1..9 on 2..10, 0 on 11
KEYS.update({"F%d" % n: 58 + n for n in range(1, 11)})
for row, first in (("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)):
    KEYS.update({letter: first + i for i, letter in enumerate(row)})


def keymap_text():
    """An xkb keymap with one single-level key for each of KEYS (xkb key codes are evdev + 8)."""
    codes = "".join("        <K%03d> = %d;\n" % (code + 8, code + 8) for code in sorted(KEYS.values()))
    symbols = "".join("        key <K%03d> { [ %s ] };\n" % (code + 8, name)
                      for name, code in sorted(KEYS.items(), key=lambda item: item[1]))
    return ("xkb_keymap {\n"
            "    xkb_keycodes \"vkeyboard\" {\n        minimum = 8;\n        maximum = 255;\n"
            + codes + "    };\n"
            "    xkb_types \"vkeyboard\" {\n"
            "        type \"ONE_LEVEL\" { modifiers = none; level_name[Level1] = \"Any\"; };\n"
            "    };\n"
            "    xkb_compatibility \"vkeyboard\" {\n    };\n"
            "    xkb_symbols \"vkeyboard\" {\n" + symbols + "    };\n"
            "};\n")


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    wl = Connection("vkeyboard")
    manager = wl.bind(MANAGER_INTERFACE, 1)
    seat = wl.bind("wl_seat", 1)
    if manager is None or seat is None:
        print("vkeyboard: the compositor offers no %s or no wl_seat" % MANAGER_INTERFACE, file=sys.stderr)
        return 1
    keyboard = wl.new_id()
    wl.send(manager, MANAGER_CREATE_VIRTUAL_KEYBOARD, struct.pack("=II", seat, keyboard))
    # The keymap goes in a memfd, NUL-terminated within its size (the compositor maps it).
    text = keymap_text().encode() + b"\0"
    fd = os.memfd_create("vkeyboard-keymap", os.MFD_CLOEXEC)
    try:
        os.write(fd, text)
        wl.send(keyboard, KEYBOARD_KEYMAP, struct.pack("=II", KEYMAP_FORMAT_XKB_V1, len(text)), fds=[fd])
        wl.roundtrip()
    finally:
        os.close(fd)
    print("virtual keyboard ready", flush=True)

    def key(name, state):
        wl.send(keyboard, KEYBOARD_KEY, struct.pack("=III", now_ms(), KEYS[name], state))

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, name = words[0], words[1] if len(words) > 1 else None
        arguments = 2 if command == "hold" else 1 if command in ("key", "press", "release") else -1
        if len(words) != 1 + arguments or name not in KEYS:
            print("vkeyboard: unknown command or key name %r" % line.strip(), file=sys.stderr)
            return 2
        if command != "release":
            key(name, KEY_PRESSED)
        if command == "hold":
            wl.roundtrip()  # the press is there before the wait
            time.sleep(float(words[2]))
        if command != "press":
            key(name, KEY_RELEASED)
        wl.roundtrip()  # surfaces a protocol error at the command that caused it
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
