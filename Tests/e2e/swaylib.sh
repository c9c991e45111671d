# shellcheck shell=bash
# Sourced after lib.sh by the scripts that run Lectern under sway headless (Tests/e2e/sway.sh,
# Tests/e2e/pan-bench.sh): sway with one output, and a virtual pointer and keyboard fed through
# FIFOs (fd 3 and fd 4) that only the calling shell holds open, so that closing them ends the
# devices' input. Start every other process with `3>&- 4>&-`.

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
seat_has_pointer() { msg -r -t get_seats | grep -q '"capabilities": *[13]\b'; }
seat_has_keyboard() { msg -r -t get_seats | grep -q '"capabilities": *[23]\b'; }
keyboard_listed() { msg -r -t get_inputs | grep -q '"type": *"keyboard"'; }

# e2e_sway SIZE: starts sway headless (pixman, no input devices) with its output at SIZE (WxH)
# and Lectern's window fullscreen. Sets sway_sid, swaysock, display (the Wayland socket's name)
# and output (the output's name); fails, says why and returns 1 when sway does not come up.
e2e_sway() {
  local size=$1
  cat >"$e2e_stage/sway.conf" <<CONF
output * mode $size
default_border none
xwayland disable
for_window [app_id="lectern"] fullscreen enable
CONF
  e2e_start "$e2e_stage/sway.log" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
    sway -c "$e2e_stage/sway.conf"
  sway_sid=$e2e_sid
  if ! wait_for 10 sway_listens; then
    fail "sway did not create its IPC and Wayland sockets within 10 s"
    show_log "$e2e_stage/sway.log"
    return 1
  fi
  swaysock=$(sway_socket)
  display=$(basename "$(wayland_socket)")
  if ! wait_for 5 output_is "$size"; then
    fail "sway's output is not $size: $(output_field mode 2>&1 | tail -n 1)"
    show_log "$e2e_stage/sway.log"
    return 1
  fi
  output=$(output_field name)
}

# e2e_fifo NAME FD: a FIFO $e2e_stage/NAME.fifo the run user can read, held open on FD.
e2e_fifo() {
  local fifo=$e2e_stage/$1.fifo
  mkfifo -m 0600 "$fifo"
  [[ $(id -u) -eq 0 ]] && chown "$e2e_run_user:" "$fifo"
  eval "exec $2<>\"\$fifo\""
}

# e2e_vpointer SIZE: a virtual pointer (Tests/e2e/vpointer.py, staged) on sway's seat, fed by
# `pointer COMMAND` (fd 3). Sets pointer_sid; fails, says why and returns 1 when it is missing.
e2e_vpointer() {
  e2e_fifo pointer 3
  # shellcheck disable=SC2016 # $1..$3 are the inner shell's arguments
  e2e_start "$e2e_stage/vpointer.log" "WAYLAND_DISPLAY=$display" \
    sh -c 'exec python3 "$1" "$2" <"$3"' sh "$e2e_stage/vpointer.py" "$1" "$e2e_stage/pointer.fifo" 3>&- 4>&-
  pointer_sid=$e2e_sid
  if ! wait_for 5 grep -qs "virtual pointer ready" "$e2e_stage/vpointer.log" || ! wait_for 5 seat_has_pointer; then
    fail "no virtual pointer on sway's seat within 5 s"
    show_log "$e2e_stage/vpointer.log"
    return 1
  fi
}
pointer() { printf '%s\n' "$*" >&3; }

# e2e_vkeyboard: a virtual keyboard (Tests/e2e/vkeyboard.py, staged) on sway's seat, fed by
# `keys NAME...` (fd 4). Sets keyboard_sid; fails, says why and returns 1 when it is missing.
e2e_vkeyboard() {
  e2e_fifo keyboard 4
  # shellcheck disable=SC2016 # $1 and $2 are the inner shell's arguments
  e2e_start "$e2e_stage/vkeyboard.log" "WAYLAND_DISPLAY=$display" \
    sh -c 'exec python3 "$1" <"$2"' sh "$e2e_stage/vkeyboard.py" "$e2e_stage/keyboard.fifo" 3>&- 4>&-
  keyboard_sid=$e2e_sid
  if ! wait_for 5 grep -qs "virtual keyboard ready" "$e2e_stage/vkeyboard.log" || ! wait_for 5 seat_has_keyboard ||
    ! wait_for 2 keyboard_listed; then
    fail "no virtual keyboard on sway's seat within 5 s"
    show_log "$e2e_stage/vkeyboard.log"
    return 1
  fi
}
keys() { printf 'key %s\n' "$@" >&4; }
