#!/usr/bin/env bash
# End to end under sway, headless, with real pointer input through the compositor:
# Lectern opens Tests/Fixtures/colors-8pages.pdf (one colour per page) and
#   1. starts and shows page 1;
#   2. a click in the right edge zone (`swaymsg seat seat0 cursor set/press/release`)
#      turns to page 2;
#   3. a drag to the left turns to page 3, one to the right back to page 2;
#   4. output rotation (transform 90 and back) and a mode change keep the page, a click in
#      the right edge zone still turns the page while rotated, and a zoomed view keeps its
#      viewport through rotating and rotating back and keeps its centre and width through
#      a resize; output scale 2 (and rotated at scale 2) draws a frame of every pixel of the
#      mode, still on the page; a second output (`swaymsg create_output`) gets the presenter
#      mirror, whose pixels (read back with grim) show the page there before and after page
#      turns while the reader's output keeps the focus; the reader's output shows it too,
#      also with the cursor hidden; at rest with the mirror open, Lectern uses no CPU;
#   5. SIGTERM ends Lectern with status 0, and nothing is left behind.
# The page on screen is read from the frame dump's colour and from the log's
# `view state: page N` lines (LECTERN_LOG_LEVEL=${VISIT_LOG:-debug}).
#
# Usage: Tests/e2e/sway.sh [LECTERN_BINARY]   (default: .build/debug/lectern)
# Prints PASS/FAIL lines and a summary; exits 1 if anything failed (also when sway is
# missing or does not start: this test is never skipped).
# See Tests/e2e/lib.sh for the environment variables it understands (not LECTERN_E2E_FILE:
# the checks need the colour fixture).
#
# Facts about sway 1.7 headless (Debian bookworm), which shape this script:
# - With WLR_LIBINPUT_NO_DEVICES=1 the seat has no pointer device, so it does not offer a
#   wl_pointer and `swaymsg seat seat0 cursor press` reaches no client. Tests/e2e/vpointer.py
#   adds one (zwlr_virtual_pointer_v1) before Lectern starts.
# - `swaymsg seat seat0 cursor move/set` while a button is held moves sway's cursor but is
#   not sent to the client (sway's "down" seat operation has no rebase; sway master neither),
#   so a drag cannot be made with swaymsg: its motion comes from the virtual pointer, whose
#   events go through sway's cursor and seat code like a mouse's.
# - swaymsg needs `--` before negative numbers.
set -euo pipefail
e2e_name=visit
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$e2e_root"

bin=${1:-.build/debug/lectern}
width=1280
height=720
size=${width}x${height}
LECTERN_E2E_FILE=${VISIT_FILE:-$e2e_root/Tests/Fixtures/colors-8pages.pdf}

for tool in sway swaymsg grim python3 setsid timeout pgrep mkfifo; do
  command -v "$tool" >/dev/null || { fail "$tool is not installed (run kiosk/install-deps)"; e2e_summary; }
done

e2e_user
trap e2e_cleanup EXIT
e2e_stage "$bin" || e2e_summary
cp Tests/e2e/vpointer.py Tests/e2e/wlwire.py Tests/e2e/vkeyboard.py "$e2e_stage/"
log=$e2e_stage/lectern.log

# --- sway ---------------------------------------------------------------------------------
cat >"$e2e_stage/sway.conf" <<EOF
output * mode $size
default_border none
xwayland disable
for_window [app_id="lectern"] fullscreen enable
EOF
e2e_start "$e2e_stage/sway.log" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  sway -c "$e2e_stage/sway.conf"
sway_sid=$e2e_sid

sway_socket() { compgen -G "$e2e_xdg/sway-ipc.*.sock" | head -n 1; }
wayland_socket() { compgen -G "$e2e_xdg/wayland-*" | grep -v '\.lock$' | head -n 1; }
# msg ARGS...: swaymsg as the run user, bounded.
msg() {
  timeout 5 "${as_user[@]}" env "SWAYSOCK=$swaysock" swaymsg "$@"
}
# cmd ARGS...: a sway command; fails (and says so) unless sway reports success.
cmd() {
  local out
  out=$(msg -- "$@" 2>&1) && [[ $out == *'"success": true'* ]] && return 0
  note "swaymsg $* failed: $(tr -s ' \n' ' ' <<<"$out" | cut -c1-160)"
  return 1
}
# output_field KEY: one field of the first output (name, or current_mode as WxH).
output_field() {
  msg -r -t get_outputs | python3 -c '
import json, sys
o = json.load(sys.stdin)[0]
m = o["current_mode"]
print(o["name"] if sys.argv[1] == "name" else "%dx%d" % (m["width"], m["height"]))' "$1"
}
sway_listens() { [[ -n $(sway_socket) && -n $(wayland_socket) ]]; }
output_is() { [[ $(output_field mode 2>/dev/null) == "$1" ]]; }
if ! wait_for 10 sway_listens; then
  fail "sway did not create its IPC and Wayland sockets within 10 s"
  show_log "$e2e_stage/sway.log"
  e2e_summary
fi
swaysock=$(sway_socket)
display=$(basename "$(wayland_socket)")
if ! wait_for 5 output_is "$size"; then
  fail "sway's output is not $size: $(output_field mode 2>&1 | tail -n 1)"
  show_log "$e2e_stage/sway.log"
  e2e_summary
fi
output=$(output_field name)

# --- the virtual pointer, fed through a FIFO that only this shell holds open (fd 3, closed
# for the processes it starts) so that closing it ends the pointer's input ---------------
fifo=$e2e_stage/pointer.fifo
mkfifo -m 0600 "$fifo"
[[ $(id -u) -eq 0 ]] && chown "$e2e_run_user:" "$fifo"
exec 3<>"$fifo"
# shellcheck disable=SC2016 # $1..$3 are the inner shell's arguments
e2e_start "$e2e_stage/vpointer.log" "WAYLAND_DISPLAY=$display" \
  sh -c 'exec python3 "$1" "$2" <"$3"' sh "$e2e_stage/vpointer.py" "$size" "$fifo" 3>&-
pointer_sid=$e2e_sid
seat_has_pointer() { msg -r -t get_seats | grep -q '"capabilities": *[13]\b'; }
if ! wait_for 5 grep -q "virtual pointer ready" "$e2e_stage/vpointer.log" || ! wait_for 5 seat_has_pointer; then
  fail "no virtual pointer on sway's seat within 5 s"
  show_log "$e2e_stage/vpointer.log"
  e2e_summary
fi
pointer() { printf '%s\n' "$*" >&3; }
kfifo=$e2e_stage/keyboard.fifo
mkfifo -m 0600 "$kfifo"
[[ $(id -u) -eq 0 ]] && chown "$e2e_run_user:" "$kfifo"
exec 4<>"$kfifo"
e2e_start "$e2e_stage/vkeyboard.log" "WAYLAND_DISPLAY=$display" \
  sh -c 'exec python3 "$1" <"$2"' sh "$e2e_stage/vkeyboard.py" "$kfifo" 3>&- 4>&-
wait_for 5 grep -qs "virtual keyboard ready" "$e2e_stage/vkeyboard.log" || fail "no virtual keyboard"
keys() { printf 'key %s\n' "$@" >&4; }
hold() { printf 'hold %s %s\n' "$1" "$2" >&4; }
ctl() { timeout 5 "${as_user[@]}" env "XDG_RUNTIME_DIR=$e2e_xdg" "$e2e_bin" ctl "$@"; }

# --- Lectern --------------------------------------------------------------------------------
# The oldest: Lectern's render worker is a fork of it, with the same command line.
lectern_in() { pgrep -o -s "$1" -f "^(\S*sh )?$e2e_bin( |$)"; }
write_policy "${VISIT_POLICY:-[components]}"
e2e_start "$log" "WAYLAND_DISPLAY=$display" LECTERN_LOG_LEVEL=${VISIT_LOG:-debug} \
  "$e2e_bin" "${e2e_args[@]}" --frame-dump "$e2e_dump" --speech-output "$e2e_stage/speech.wav" --config "$e2e_stage/lectern.toml" 3>&- 4>&-
lectern_sid=$e2e_sid
if ! wait_for 10 lectern_in "$lectern_sid" >/dev/null; then
  fail "Lectern did not start under sway within 10 s"
  show_log "$log"
  e2e_summary
fi
lectern_pid=$(lectern_in "$lectern_sid")
note "sway (headless $output $size, socket $display) runs Lectern $lectern_pid as $e2e_run_user"

# Log lines after a mark (a line count), so each check sees only what its action caused.
mark() { wc -l <"$log"; }
logged_since() { tail -n "+$(($1 + 1))" "$log" | grep -qE -- "$2"; }
last_view_state() { grep -o 'view state: .*' "$log" | tail -n 1 | cut -d' ' -f3-; }
shows() { [[ $(python3 Tests/e2e/pagecolour.py "$e2e_dump" 2>/dev/null) == "$1 page $2" ]]; }
on_screen() { python3 Tests/e2e/pagecolour.py "$e2e_dump" 2>&1 || true; }

# expect_page WHAT MARK SIZE PAGE: within 5 s the frame dump (size SIZE) shows page PAGE,
# and the log says `view state: page PAGE` (the view came to rest there) after MARK.
expect_page() {
  local what=$1 since=$2 dump_size=$3 page=$4
  if ! wait_for 5 shows "$dump_size" "$page"; then
    fail "$what: the frame dump shows $(on_screen), not $dump_size page $page, after 5 s (log: view state $(last_view_state))"
    show_log "$log" 8
  elif ! wait_for 3 logged_since "$since" "view state: page $page( |$)"; then
    fail "$what: the frame dump shows page $page, but no 'view state: page $page' was logged (last: $(last_view_state))"
    show_log "$log" 6
  else
    pass "$what: page $page (frame dump $dump_size and log)"
  fi
}

# keeps_page WHAT MARK SIZE PAGE [DUMP_SIZE]: after a configure to SIZE, Lectern commits a
# SIZE frame of page PAGE, the frame dump (DUMP_SIZE, default SIZE) shows it, and no other
# page was logged since MARK. SIZE may say the scale: "1280x720 at scale 2".
keeps_page() {
  local what=$1 since=$2 new_size=$3 page=$4 dump_size=${5:-$3} other
  if ! wait_for 5 logged_since "$since" "frame committed $new_size "; then
    fail "$what: no 'frame committed $new_size' within 5 s"
    show_log "$log" 8
    return
  fi
  other=$(tail -n "+$((since + 1))" "$log" | grep -oE 'view state: page [0-9]+' | grep -v "page $page\$" | head -n 1 || true)
  if [[ -n $other ]]; then
    fail "$what: Lectern moved to another page ($other; expected page $page)"
  elif ! logged_since "$since" "frame committed $new_size \(page $page\)"; then
    fail "$what: $(tail -n "+$((since + 1))" "$log" | grep -o "frame committed $new_size.*" | head -n 1)"
  elif ! wait_for 3 shows "$dump_size" "$page"; then
    fail "$what: the frame dump shows: $(on_screen) (expected $dump_size page $page)"
  else
    pass "$what: still page $page (frame dump $dump_size and log)"
  fi
}

# click X Y: a left click through sway's IPC, at layout coordinates.
click() {
  cmd seat seat0 cursor set "$1" "$2" && cmd seat seat0 cursor press button1 &&
    cmd seat seat0 cursor release button1
}

# double_click X Y: two clicks sent at once through the virtual pointer, with event times
# 100 ms apart (not two IPC commands, whose gap depends on the machine's load).
double_click() { pointer doubleclick "$1" "$2"; }

# drag X0 X1 Y: press at X0, 7 moves to X1 over ~0.3 s, release (the virtual pointer).
drag() {
  local x0=$1 x1=$2 y=$3 i
  pointer move "$x0" "$y"
  pointer press
  for i in 1 2 3 4 5 6 7; do
    sleep 0.04
    pointer move $((x0 + (x1 - x0) * i / 7)) "$y"
  done
  pointer release
}

mkdir -p /tmp/visit
declare -A keyx keyy
while read -r _ action x y; do
  k=${action#character(\"}; k=${k%\")}
  [[ -n $k ]] && { keyx[$k]=$x; keyy[$k]=$y; }
done < <(grep '^KEY' /tmp/positions.txt 2>/dev/null)
pclick() { pointer move "$1" "$2"; sleep 0.05; pointer press; sleep 0.05; pointer release; sleep ${3:-0.5}; }
type_word() { local w=$1 i; for ((i = 0; i < ${#w}; i++)); do pclick "${keyx[${w:i:1}]}" "${keyy[${w:i:1}]}" 0.15; done; }
snap() { sleep "${2:-0.8}"; cp "$e2e_dump" "/tmp/visit/$VISIT_NAME-$1.png"; echo "snap $1: $(python3 Tests/e2e/pagecolour.py "$e2e_dump" 2>&1 | head -1)"; }
cpu() { awk '{print $14 + $15}' "/proc/$lectern_pid/stat"; }
if wait_for 10 logged_since 0 "frame committed"; then pass "first frame"; else fail "no first frame"; show_log "$log"; fi
snap start 1.5
eval "$VISIT_STEPS"
sleep 1.5
c0=$(cpu); sleep 3; c1=$(cpu)
echo "CPU ticks at rest over 3 s: $((c1 - c0))"
[[ $((c1 - c0)) -le 2 ]] && pass "CPU at rest: $((c1 - c0)) ticks in 3 s" || fail "CPU at rest: $((c1 - c0)) ticks in 3 s"
grep -iE "error|critical|warning" "$log" | grep -v "frame committed" | head -5
kill -TERM "$lectern_pid"
wait_for 5 bash -c "! kill -0 $lectern_pid 2>/dev/null" && pass "TERM ends Lectern" || fail "Lectern still running after TERM"
e2e_summary
