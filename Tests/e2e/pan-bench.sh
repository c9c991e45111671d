#!/usr/bin/env bash
# The CPU a pan costs under a real compositor (issue 33, item 2), for `kiosk/bench pan`: Lectern
# (the binary given) under sway 1.7 headless at 1920x1080, continuous vertical layout, on the PDF
# given; a virtual pointer drags the document up and down over 400 px at 60 Hz (4 px an event)
# once to warm the tiles, then for SECONDS while the CPU time of Lectern's reader, its render
# worker and sway is read from /proc (the schedstat run time of all their threads) before and
# after, with the frames Lectern committed meanwhile (`lectern ctl status`). The reference, in
# the same run: a full-frame memcpy (1920x1080x4 bytes), the floor of a client that copies every
# pixel of every frame. Prints JSON on standard output (notes on standard error); the target is
# the reader's CPU per frame within 0.1x the memcpy.
#
# Usage: Tests/e2e/pan-bench.sh LECTERN_BINARY PDF [SECONDS]
#   PAN_BENCH_PANS: the policy's render.pans (whole-frames, the default, or subsurface)
set -euo pipefail
e2e_name=pan-bench
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=Tests/e2e/swaylib.sh
source "$(dirname "$0")/swaylib.sh"
cd "$e2e_root"
exec 5>&1 1>&2 # standard output: the JSON only

bin=$1
LECTERN_E2E_FILE=$(realpath "$2")
seconds=${3:-10}
width=1920
height=1080
size=${width}x${height}
LECTERN_E2E_TIMEOUT=$((seconds + 120))
pans=${PAN_BENCH_PANS:-whole-frames}

e2e_user
trap e2e_cleanup EXIT
e2e_stage "$bin" || exit 1
cp Tests/e2e/vpointer.py Tests/e2e/wlwire.py "$e2e_stage/"
e2e_sway "$size" || exit 1
e2e_vpointer "$size" || exit 1

log=$e2e_stage/lectern.log
write_policy '[render]' "pans = \"$pans\""
e2e_start "$log" "WAYLAND_DISPLAY=$display" "$e2e_bin" "${e2e_args[@]}" --scroll continuous \
  --direction vertical --config "$e2e_stage/lectern.toml" 3>&- 4>&-
lectern_sid=$e2e_sid
status() {
  timeout 5 "${as_user[@]}" env "XDG_RUNTIME_DIR=$e2e_xdg" "$e2e_bin" ctl status --json 2>/dev/null
}
field() { status | python3 -c 'import json, sys; print(json.load(sys.stdin)["status"][sys.argv[1]])' "$1"; }
on_page_1() { [[ $(field page 2>/dev/null) == 1 ]]; }
if ! wait_for 20 on_page_1; then
  fail "Lectern did not show page 1 under sway within 20 s"
  show_log "$log"
  exit 1
fi
reader=$(pgrep -o -s "$lectern_sid" -f "^(\S*sh )?$e2e_bin( |$)")
worker=$(pgrep -P "$reader" -f "^$e2e_bin( |$)" | head -n 1 || true)
sway=$(pgrep -o -s "$sway_sid" -x sway)
note "reader $reader, render worker ${worker:-none}, sway $sway"

# drag SECONDS: the pointer down, 60 Hz motion up and down over 400 px (each `move` written at its
# deadline; vpointer.py stamps it when it reads it), the pointer up.
drag() {
  pointer move $((width / 2)) $((height - 200))
  pointer press
  python3 - "$e2e_stage/pointer.fifo" "$1" "$((width / 2))" "$((height - 200))" <<'PY'
import sys, time
fifo, seconds, x, bottom = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with open(fifo, "w", buffering=1) as out:
    start = time.monotonic()
    for k in range(1, int(seconds * 60) + 1):
        time.sleep(max(0.0, start + k / 60 - time.monotonic()))
        leg = (k * 4) % 800
        out.write("move %d %d\n" % (x, bottom - (leg if leg < 400 else 800 - leg)))
PY
  pointer release
}
# run_ns PID...: the nanoseconds all threads of the processes have run (schedstat).
run_ns() {
  local pid total=0 task
  for pid in "$@"; do
    [[ -n $pid ]] || continue
    for task in /proc/"$pid"/task/*/schedstat; do
      total=$((total + $(cut -d' ' -f1 "$task" 2>/dev/null || echo 0)))
    done
  done
  echo "$total"
}

drag 3
sleep 1
frames0=$(field framesCommitted)
reader0=$(run_ns "$reader") worker0=$(run_ns "$worker") sway0=$(run_ns "$sway")
drag "$seconds"
reader1=$(run_ns "$reader") worker1=$(run_ns "$worker") sway1=$(run_ns "$sway")
frames1=$(field framesCommitted)

python3 - "$seconds" "$size" "$((frames1 - frames0))" "$((reader1 - reader0))" "$((worker1 - worker0))" \
  "$((sway1 - sway0))" "$pans" >&5 <<'PY'
import ctypes, json, statistics, sys, time
seconds, size, frames = float(sys.argv[1]), sys.argv[2], int(sys.argv[3])
reader, worker, sway = (int(v) / 1e6 for v in sys.argv[4:7])
width, height = (int(v) for v in size.split("x"))
count = width * height * 4
source, target = ctypes.create_string_buffer(count), ctypes.create_string_buffer(count)
ctypes.memset(source, 0x5A, count)  # pages of their own, not the zero page
ctypes.memmove(target, source, count)
copies = []
for _ in range(100):
    start = time.perf_counter()
    ctypes.memmove(target, source, count)
    copies.append((time.perf_counter() - start) * 1000)
memcpy = statistics.median(copies)
per_frame = reader / frames if frames else float("nan")
print(json.dumps({
    "benchmark": "pan under sway",
    "render_pans": sys.argv[7],
    "method": "sway 1.7 headless %s (pixman), Lectern continuous vertical; a virtual pointer drags "
              "up and down over 400 px at 60 Hz for %g s after a 3 s warm-up; CPU time of all threads "
              "(schedstat) before/after; frames from `lectern ctl status`; reference: a full-frame "
              "memcpy in this run (median of 100)" % (size, seconds),
    "frames": frames,
    "reader_cpu_ms": round(reader, 1), "worker_cpu_ms": round(worker, 1), "sway_cpu_ms": round(sway, 1),
    "reader_cpu_per_frame_ms": round(per_frame, 3),
    "sway_cpu_per_frame_ms": round(sway / frames, 3) if frames else None,
    "memcpy_full_frame_ms": round(memcpy, 3),
    "reader_per_frame_ratio_to_memcpy": round(per_frame / memcpy, 2),
    "target_ratio": 0.1,
}, indent=2))
PY
