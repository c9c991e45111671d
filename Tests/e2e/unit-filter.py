#!/usr/bin/env python3
"""Prints the system calls a unit's SystemCallFilter= allows, one per line, groups (@name)
expanded by systemd-analyze: the list Tests/e2e/unit-filter.c enforces.

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
            for item in line.split("=", 1)[1].split():
                if item.startswith("~"):
                    sys.exit("unit-filter.py: deny lists are not supported")
                allowed |= expand(item, set()) if item.startswith("@") else {item}
if not allowed:
    sys.exit("unit-filter.py: no SystemCallFilter= in " + sys.argv[1])
print("\n".join(sorted(allowed)))
