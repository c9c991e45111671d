#!/usr/bin/env python3
"""A virtual pointer for wlroots compositors (zwlr_virtual_pointer_v1), driven from stdin.

Usage: vpointer.py WIDTHxHEIGHT < COMMANDS

Connects to $WAYLAND_DISPLAY, creates one virtual pointer on the default seat, prints
"virtual pointer ready" and then reads one command per line until end of input:
  move X Y       absolute motion to (X, Y) in the WIDTHxHEIGHT layout, then a frame
  press          left button down, then a frame
  release        left button up, then a frame
  doubleclick X Y  motion to (X, Y), then two left clicks sent at once, stamped 0, 40, 100
                 and 140 ms after the motion (a double click whose timing does not depend on
                 how fast this script, sway or the client run)
  wheel N        N detents of a mouse wheel (negative: up), as axis_source wheel,
                 axis_discrete N and 15 px of axis a detent, then a frame
Each command is sent (with a CLOCK_MONOTONIC millisecond timestamp, the clock sway's own
events use) as soon as it is read. Exits 1 with a message on a protocol error.

Why: under sway's headless backend the seat has no pointer device, so a client gets no
wl_pointer; and `swaymsg seat seat0 cursor move/set` is not forwarded to the client while
a button is held (sway's "down" seat operation has no rebase), so it cannot drag. A virtual
pointer is a real input device: its events go through sway's cursor and seat code like a
mouse's. Only the standard library: the Wayland wire protocol is written by hand (wlwire.py,
beside this file).
"""

import struct
import sys

from wlwire import Connection, now_ms

BTN_LEFT = 0x110
# Request opcodes, in the order of the protocol XML.
MANAGER_CREATE_VIRTUAL_POINTER = 0
POINTER_MOTION_ABSOLUTE, POINTER_BUTTON, POINTER_FRAME = 1, 2, 4
POINTER_AXIS_SOURCE, POINTER_AXIS_DISCRETE = 5, 7
AXIS_VERTICAL, AXIS_SOURCE_WHEEL = 0, 0
MANAGER_INTERFACE = "zwlr_virtual_pointer_manager_v1"


def main(argv):
    if len(argv) != 2 or "x" not in argv[1]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    width, height = (int(v) for v in argv[1].split("x"))
    wl = Connection("vpointer")
    manager = wl.bind(MANAGER_INTERFACE, 1)
    if manager is None:
        print("vpointer: the compositor offers no %s" % MANAGER_INTERFACE, file=sys.stderr)
        return 1
    pointer = wl.new_id()
    wl.send(manager, MANAGER_CREATE_VIRTUAL_POINTER, struct.pack("=II", 0, pointer))  # seat: default
    wl.roundtrip()
    print("virtual pointer ready", flush=True)

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "move" and len(words) == 3:
            x, y = (max(0, round(float(v))) for v in words[1:])
            wl.send(pointer, POINTER_MOTION_ABSOLUTE, struct.pack("=IIIII", now_ms(), x, y, width, height))
        elif words[0] in ("press", "release") and len(words) == 1:
            wl.send(pointer, POINTER_BUTTON, struct.pack("=III", now_ms(), BTN_LEFT, int(words[0] == "press")))
        elif words[0] == "doubleclick" and len(words) == 3:
            x, y = (max(0, round(float(v))) for v in words[1:])
            start = now_ms()
            wl.send(pointer, POINTER_MOTION_ABSOLUTE, struct.pack("=IIIII", start, x, y, width, height))
            wl.send(pointer, POINTER_FRAME)
            for offset, pressed in ((0, 1), (40, 0), (100, 1), (140, 0)):
                time_ms = (start + offset) & 0xFFFFFFFF
                wl.send(pointer, POINTER_BUTTON, struct.pack("=III", time_ms, BTN_LEFT, pressed))
                if offset != 140:
                    wl.send(pointer, POINTER_FRAME)
        elif words[0] == "wheel" and len(words) == 2:
            detents = int(words[1])
            wl.send(pointer, POINTER_AXIS_SOURCE, struct.pack("=I", AXIS_SOURCE_WHEEL))
            # axis_discrete: time, axis, value (24.8 fixed), discrete steps.
            value = int(15 * detents * 256)
            wl.send(pointer, POINTER_AXIS_DISCRETE, struct.pack("=IIii", now_ms(), AXIS_VERTICAL, value, detents))
        else:
            print("vpointer: unknown command %r" % line.strip(), file=sys.stderr)
            return 2
        wl.send(pointer, POINTER_FRAME)
        wl.roundtrip()  # surfaces a protocol error at the command that caused it
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
