#!/usr/bin/env bash
# End to end under weston's kiosk-shell, headless (a second real compositor): Lectern
# runs as an unprivileged user, survives 5 s, commits a frame of the output size, its
# frame dump shows the page, SIGTERM ends it with status 0, and when the compositor goes
# away Lectern ends with a non-zero status and says why.
#
# Usage: Tests/e2e/weston.sh [LECTERN_BINARY]   (default: .build/debug/lectern)
# Prints PASS/FAIL lines and a summary; exits 1 if anything failed.
# See Tests/e2e/lib.sh for the environment variables it understands.
#
# Facts about weston 10 headless (Debian bookworm): it runs as root too, but runs here as
# the same unprivileged user as under cage; it offers no wl_seat (no input devices), but
# does offer wp_viewporter and wp_presentation, which cage 0.1.4 does not; screenshots
# (weston-screenshooter) need `--debug`, so pixels are checked through the frame dump.
set -euo pipefail
e2e_name=weston
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$e2e_root"

bin=${1:-.build/debug/lectern}
width=1280
height=720
size=${width}x${height}

for tool in weston python3 setsid timeout pgrep; do
  command -v "$tool" >/dev/null || { fail "$tool is not installed (run kiosk/install-deps)"; e2e_summary; }
done

# The colour fixture at page 3: the frame must show that page, not just a page.
LECTERN_E2E_FILE=${LECTERN_E2E_FILE-$e2e_root/Tests/Fixtures/colors-8pages.pdf}
e2e_user
trap e2e_cleanup EXIT
e2e_stage "$bin" || e2e_summary
start_page=()
[[ -n $LECTERN_E2E_FILE ]] && start_page=(--page 3)
socket=lectern-e2e-$$

start_weston() {
  e2e_start "$e2e_stage/weston.log" weston --backend=headless-backend.so --shell=kiosk-shell.so \
    --use-pixman --width="$width" --height="$height" --socket="$socket" --idle-time=0
  weston_sid=$e2e_sid
  if ! wait_for 10 test -S "$e2e_xdg/$socket"; then
    fail "weston did not create its socket $socket within 10 s"
    show_log "$e2e_stage/weston.log"
    e2e_summary
  fi
}

# The Lectern process in session $1 (an interpreter may be in front of the path).
# The oldest: Lectern's render worker is a fork of it, with the same command line.
lectern_in() { pgrep -o -s "$1" -f "^(\S*sh )?$e2e_bin( |$)"; }

start_lectern() {
  lectern_log=$1
  e2e_start "$lectern_log" WAYLAND_DISPLAY="$socket" "$e2e_bin" "${e2e_args[@]}" "${start_page[@]}" --frame-dump "$e2e_dump"
  lectern_sid=$e2e_sid
  if ! wait_for 10 lectern_in "$lectern_sid" >/dev/null; then
    fail "Lectern did not start within 10 s"
    show_log "$lectern_log"
    e2e_summary
  fi
  lectern_pid=$(lectern_in "$lectern_sid")
}

# exit_status SID SECONDS: waits for the session leader (whose status is Lectern's) to
# end and sets `status` to its exit status, or to "still running".
exit_status() {
  status="still running"
  if wait_for "$2" eval "! kill -0 $1 2>/dev/null"; then
    status=0
    wait "$1" || status=$?
  fi
}

# 1. A normal run.
start_weston
start_lectern "$e2e_stage/lectern.log"
note "weston (kiosk-shell, headless $size) and Lectern $lectern_pid run as $e2e_run_user"
sleep 5
if kill -0 "$lectern_pid" 2>/dev/null && session_alive "$weston_sid"; then
  pass "Lectern and weston are still running after 5 s"
else
  fail "Lectern or weston ended within 5 s"
  show_log "$e2e_stage/lectern.log"
  show_log "$e2e_stage/weston.log" 10
fi
if grep -q "frame committed $size" "$e2e_stage/lectern.log"; then
  pass "Lectern logged 'frame committed $size'"
else
  fail "no 'frame committed $size' in the log ($(grep -o 'frame committed [0-9]*x[0-9]*' "$e2e_stage/lectern.log" | sort -u | tr '\n' ' '))"
  show_log "$e2e_stage/lectern.log"
fi
if [[ ${#start_page[@]} -gt 0 ]]; then
  check_page_shown "$size" 3
else
  check_frame_dump "$size"
fi

kill -TERM "$lectern_pid" 2>/dev/null || true
exit_status "$lectern_sid" 5
if [[ $status == 0 ]]; then
  pass "SIGTERM: Lectern exited with status 0"
else
  fail "SIGTERM: Lectern exit status: $status (expected 0 within 5 s)"
  show_log "$e2e_stage/lectern.log"
fi

# 2. The compositor goes away under a running Lectern.
rm -f "$e2e_dump"
start_lectern "$e2e_stage/lectern-lost.log"
wait_for 10 grep -q "frame committed" "$e2e_stage/lectern-lost.log" || true
weston_pid=$(pgrep -s "$weston_sid" -x weston || true)
[[ -n $weston_pid ]] && kill -TERM "$weston_pid"
exit_status "$lectern_sid" 5
case $status in
  0) fail "compositor gone: Lectern exited with status 0 (expected non-zero)" ;;
  "still running") fail "compositor gone: Lectern still running 5 s after weston ended" ;;
  *)
    if ((status >= 128)); then
      fail "compositor gone: Lectern was killed by signal $((status - 128)) instead of exiting"
      show_log "$e2e_stage/lectern-lost.log"
    else
      pass "compositor gone: Lectern exited with status $status: $(grep -v '^\s*$' "$e2e_stage/lectern-lost.log" | tail -n 1 | cut -c1-160)"
      # Weston stopped because this script sent it SIGTERM, not because it crashed.
      if wait_for 3 grep -q "caught signal 15" "$e2e_stage/weston.log"; then
        pass "weston's log says why it stopped: $(grep -o 'caught signal 15' "$e2e_stage/weston.log" | head -n 1)"
      else
        fail "weston's log does not say it caught SIGTERM: $(tail -n 1 "$e2e_stage/weston.log")"
      fi
    fi
    ;;
esac

end_session "$lectern_sid"
end_session "$weston_sid"
if session_alive "$weston_sid" || session_alive "$lectern_sid"; then
  fail "processes left behind: $(pgrep -a -s "$weston_sid,$lectern_sid" | tr '\n' ';')"
else
  pass "no weston or Lectern process left behind"
fi
e2e_summary
