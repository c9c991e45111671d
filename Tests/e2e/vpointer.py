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
mouse's. Only the standard library: the Wayland wire protocol is written by hand.
"""

import os
import socket
import struct
import sys
import time

BTN_LEFT = 0x110
# Request opcodes, in the order of the protocol XMLs.
DISPLAY_SYNC, DISPLAY_GET_REGISTRY = 0, 1
REGISTRY_BIND = 0
MANAGER_CREATE_VIRTUAL_POINTER = 0
POINTER_MOTION_ABSOLUTE, POINTER_BUTTON, POINTER_FRAME = 1, 2, 4
POINTER_AXIS_SOURCE, POINTER_AXIS_DISCRETE = 5, 7
AXIS_VERTICAL, AXIS_SOURCE_WHEEL = 0, 0
MANAGER_INTERFACE = "zwlr_virtual_pointer_manager_v1"


class Connection:
    def __init__(self):
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        name = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
        path = name if name.startswith("/") else os.path.join(runtime or "", name)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.next_id = 2  # 1 is wl_display
        self.buffer = b""
        self.globals = {}

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, obj, opcode, payload=b""):
        size = 8 + len(payload)
        self.sock.sendall(struct.pack("=II", obj, (size << 16) | opcode) + payload)

    def events(self):
        """Yields (object, opcode, payload) for the events that have arrived."""
        while True:
            if len(self.buffer) >= 8:
                obj, word = struct.unpack("=II", self.buffer[:8])
                size = word >> 16
                if len(self.buffer) >= size:
                    payload, self.buffer = self.buffer[8:size], self.buffer[size:]
                    yield obj, word & 0xFFFF, payload
                    continue
            data = self.sock.recv(65536)
            if not data:
                raise SystemExit("vpointer: the compositor closed the connection")
            self.buffer += data

    def roundtrip(self, registry=None):
        """Sends wl_display.sync and handles events until its callback is done."""
        callback = self.new_id()
        self.send(1, DISPLAY_SYNC, struct.pack("=I", callback))
        for obj, opcode, payload in self.events():
            if obj == 1 and opcode == 0:  # wl_display.error
                failed, code = struct.unpack("=II", payload[:8])
                raise SystemExit("vpointer: protocol error on object %d, code %d: %s"
                                 % (failed, code, string_at(payload, 8)))
            if obj == registry and opcode == 0:  # wl_registry.global
                gname, = struct.unpack("=I", payload[:4])
                interface = string_at(payload, 4)
                version, = struct.unpack("=I", payload[-4:])
                self.globals[interface] = (gname, version)
            if obj == callback and opcode == 0:  # wl_callback.done
                return


def string_at(payload, offset):
    length, = struct.unpack("=I", payload[offset:offset + 4])
    return payload[offset + 4:offset + 4 + length - 1].decode("utf-8", "replace")


def string_arg(text):
    data = text.encode() + b"\0"
    return struct.pack("=I", len(data)) + data + b"\0" * (-len(data) % 4)


def now_ms():
    return (time.monotonic_ns() // 1_000_000) & 0xFFFFFFFF


def main(argv):
    if len(argv) != 2 or "x" not in argv[1]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    width, height = (int(v) for v in argv[1].split("x"))
    wl = Connection()
    registry = wl.new_id()
    wl.send(1, DISPLAY_GET_REGISTRY, struct.pack("=I", registry))
    wl.roundtrip(registry)
    if MANAGER_INTERFACE not in wl.globals:
        print("vpointer: the compositor offers no %s" % MANAGER_INTERFACE, file=sys.stderr)
        return 1
    gname, _ = wl.globals[MANAGER_INTERFACE]
    manager = wl.new_id()
    wl.send(registry, REGISTRY_BIND,
            struct.pack("=I", gname) + string_arg(MANAGER_INTERFACE) + struct.pack("=II", 1, manager))
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
