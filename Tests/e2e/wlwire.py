"""The Wayland wire protocol by hand, for the end-to-end input devices (vpointer.py, vkeyboard.py).

Only the standard library: a Unix socket to $WAYLAND_DISPLAY, requests packed with struct (file
descriptors passed with SCM_RIGHTS), the registry's globals, and wl_display.sync round trips that
turn a protocol error into an exit with a message.
"""

import array
import os
import socket
import struct
import time

# Request opcodes of wl_display and wl_registry.
DISPLAY_SYNC, DISPLAY_GET_REGISTRY = 0, 1
REGISTRY_BIND = 0


class Connection:
    """A client connection; `name` prefixes the messages it exits with."""

    def __init__(self, name):
        self.name = name
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        display = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
        path = display if display.startswith("/") else os.path.join(runtime or "", display)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.next_id = 2  # 1 is wl_display
        self.buffer = b""
        self.globals = {}
        self.registry = self.new_id()
        self.send(1, DISPLAY_GET_REGISTRY, struct.pack("=I", self.registry))
        self.roundtrip()

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, obj, opcode, payload=b"", fds=()):
        """Sends a request; `fds` go with it as SCM_RIGHTS (its fd arguments, in order)."""
        size = 8 + len(payload)
        message = struct.pack("=II", obj, (size << 16) | opcode) + payload
        if not fds:
            self.sock.sendall(message)
            return
        rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds).tobytes())]
        sent = self.sock.sendmsg([message], rights)
        if sent < len(message):
            self.sock.sendall(message[sent:])

    def bind(self, interface, version):
        """Binds the global `interface` at `version`; its new id, or None if not offered."""
        if interface not in self.globals:
            return None
        gname, _ = self.globals[interface]
        obj = self.new_id()
        self.send(self.registry, REGISTRY_BIND,
                  struct.pack("=I", gname) + string_arg(interface) + struct.pack("=II", version, obj))
        return obj

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
                raise SystemExit("%s: the compositor closed the connection" % self.name)
            self.buffer += data

    def roundtrip(self):
        """Sends wl_display.sync and handles events until its callback is done."""
        callback = self.new_id()
        self.send(1, DISPLAY_SYNC, struct.pack("=I", callback))
        for obj, opcode, payload in self.events():
            if obj == 1 and opcode == 0:  # wl_display.error
                failed, code = struct.unpack("=II", payload[:8])
                raise SystemExit("%s: protocol error on object %d, code %d: %s"
                                 % (self.name, failed, code, string_at(payload, 8)))
            if obj == self.registry and opcode == 0:  # wl_registry.global
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
    """CLOCK_MONOTONIC in milliseconds (32 bits, wrapping): the clock sway's own events use."""
    return (time.monotonic_ns() // 1_000_000) & 0xFFFFFFFF
