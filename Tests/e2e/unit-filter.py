#!/usr/bin/env python3
"""Prints the system calls a unit's SystemCallFilter= allows, one per line, groups (@name)
expanded by systemd-analyze: the list Tests/e2e/unit-filter.c enforces. A line whose list
starts with ~ (SystemCallFilter=~@privileged) takes its calls out of the lines before it.

Usage: unit-filter.py UNIT-FILE
"""
import subprocess
import sys


def expand(group, seen):
    out = subprocess.run(["systemd-analyze", "syscall-filter", group], capture_output=True, text=True, check=True)
    calls = set()
    for line in out.stdout.splitlines()[1:]:
        name = line.strip()
        if not name or name.startswith("#"):
            continue
        if name.startswith("@"):
            if name not in seen:
                seen.add(name)
                calls |= expand(name, seen)
        else:
            calls.add(name)
    return calls


allowed = set()
with open(sys.argv[1]) as unit:
    for line in unit:
        if line.startswith("SystemCallFilter="):
            items = line.split("=", 1)[1].split()
            # A line starting with ~ takes its calls out of the allow list the lines before made.
            deny = bool(items) and items[0].startswith("~")
            if deny:
                if not allowed:
                    sys.exit("unit-filter.py: a deny list without an allow list before it is not supported")
                items[0] = items[0][1:]
            calls = set()
            for item in items:
                calls |= expand(item, set()) if item.startswith("@") else {item}
            allowed = allowed - calls if deny else allowed | calls
if not allowed:
    sys.exit("unit-filter.py: no SystemCallFilter= in " + sys.argv[1])
print("\n".join(sorted(allowed)))
