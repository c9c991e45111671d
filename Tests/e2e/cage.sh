#!/usr/bin/env bash
# End to end under cage, the production compositor, headless: Lectern runs as an
# unprivileged user, survives 5 s, commits a frame of the output size, its frame dump
# shows the page, the policy file it follows is re-read when edited (a mistake logged with its
# line and key, not applied), the metrics file appears within 15 s and Prometheus's own parser
# reads it, and SIGTERM ends Lectern and cage cleanly. Lectern runs under the system call filter
# of kiosk/lectern.service (Tests/e2e/unit-filter.c), so its render worker must work there.
# Then an EPUB (issue 35), opened by its content, laid out for the screen and shown.
#
# Usage: Tests/e2e/cage.sh [LECTERN_BINARY]   (default: .build/debug/lectern)
# Prints PASS/FAIL lines and a summary; exits 1 if anything failed.
# See Tests/e2e/lib.sh for the environment variables it understands.
set -euo pipefail
e2e_name=cage
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$e2e_root"

bin=${1:-.build/debug/lectern}
# wlroots' headless backend makes one 1280x720 output (cage 0.1.4 / wlroots 0.15).
size=1280x720

for tool in cage python3 setsid timeout pgrep; do
  command -v "$tool" >/dev/null || { fail "$tool is not installed (run kiosk/install-deps)"; e2e_summary; }
done
dpkg-query -W -f='${db:Status-Status}' xwayland 2>/dev/null | grep -qx installed ||
  note "xwayland is not installed; cage 0.1.4 may fail to start without it"

# The colour fixture at page 3: the frame must show that page, not just a page.
LECTERN_E2E_FILE=${LECTERN_E2E_FILE-$e2e_root/Tests/Fixtures/colors-8pages.pdf}
e2e_user
trap e2e_cleanup EXIT
e2e_stage "$bin" || e2e_summary
start_page=()
[[ -n $LECTERN_E2E_FILE ]] && start_page=(--page 3)

# The unit's SystemCallFilter=, as systemd would apply it (a system call it leaves out kills the
# process): its groups expanded by systemd-analyze, enforced by unit-filter.c in front of Lectern.
unit_filter "$e2e_root/kiosk/lectern.service" || true
filter=("${unit_filter[@]}")

log=$e2e_stage/cage.log
# cage refuses to run as root; e2e_start runs it as $e2e_run_user.
# The metrics file (Tests/e2e/promcheck.py reads it) goes in a directory the run user owns, as
# node_exporter's textfile directory would be (the file is replaced by a rename inside it).
mkdir "$e2e_stage/metrics"
[[ $(id -u) -ne 0 ]] || chown "$e2e_run_user:" "$e2e_stage/metrics"
metrics=('[metrics]' 'textfile = "metrics/lectern.prom"')
# Speech goes to a WAV file the run user writes (as an operator listening to what a visitor heard).
speech_wav=$e2e_stage/metrics/speech.wav
metrics+=('[speech]' "output = \"$speech_wav\"" 'language = "en-us"')
write_policy '[idle]' 'reset = 120' "${metrics[@]}"
e2e_start "$log" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  cage -- "${filter[@]}" "$e2e_bin" "${e2e_args[@]}" "${start_page[@]}" --frame-dump "$e2e_dump" \
  --config "$e2e_stage/lectern.toml"
sid=$e2e_sid

cage_pid() { pgrep -s "$sid" -x cage; }
# cage starts its client as a child; match it by path (an interpreter may be in front).
lectern_pid() {
  local cage
  cage=$(cage_pid) || return 1
  pgrep -P "$cage" -f "$e2e_bin"
}

if ! wait_for 10 lectern_pid >/dev/null; then
  fail "Lectern did not start under cage within 10 s"
  show_log "$log"
  e2e_summary
fi
pid=$(lectern_pid)
note "cage $(cage_pid) runs Lectern $pid as $e2e_run_user, output $size"

# Survives 5 s.
sleep 5
if kill -0 "$pid" 2>/dev/null && cage_pid >/dev/null; then
  pass "Lectern and cage are still running after 5 s"
else
  fail "Lectern or cage ended within 5 s"
  show_log "$log"
fi

if grep -q "frame committed $size" "$log"; then
  pass "Lectern logged 'frame committed $size'"
else
  fail "no 'frame committed $size' in the log ($(grep -o 'frame committed [0-9]*x[0-9]*' "$log" | sort -u | tr '\n' ' '))"
  show_log "$log"
fi

if [[ ${#start_page[@]} -gt 0 ]]; then
  check_page_shown "$size" 3
else
  check_frame_dump "$size"
fi

# The render worker (a child of Lectern unless --render-process off) runs under its own seccomp
# filter on top of the unit's.
worker=$(pgrep -P "$pid" | head -n 1 || true)
if [[ " ${e2e_args[*]} " == *" --render-process off "* ]]; then
  [[ -z $worker ]] && pass "no render worker with --render-process off" || fail "a render worker $worker runs with --render-process off"
elif [[ -n $worker ]]; then
  filters=$(awk '/^Seccomp_filters:/ {print $2}' "/proc/$worker/status" 2>/dev/null || true)
  want=$((${#filter[@]} > 0 ? 2 : 1))
  how="its own"
  [[ ${#filter[@]} -gt 0 ]] && how="the unit's and its own"
  if [[ ${filters:-0} -ge $want ]]; then
    pass "the render worker $worker runs under $filters seccomp filters ($how)"
  else
    fail "the render worker $worker runs under ${filters:-no} seccomp filters (expected $want)"
  fi
else
  fail "Lectern $pid has no render worker"
  show_log "$log"
fi

# The policy file edited while Lectern runs under cage (inotify as the kiosk user): a mistake is
# logged with its line and key and not applied; the fixed file is. (cage has no virtual pointer:
# Tests/e2e/sway.sh checks that an edit changes what a click does.)
m=$(wc -l <"$log")
write_policy '[idle]' 'reset = 120' '[layout]' 'spreads = "triple"' "${metrics[@]}"
if wait_for 3 eval "tail -n +$((m + 1)) '$log' | grep -q 'lectern.toml:4: layout.spreads: must be one of'"; then
  pass "an invalid policy edit is logged with its line and key"
else
  fail "no 'lectern.toml:4: layout.spreads: …' logged within 3 s of an invalid edit"
  show_log "$log" 6
fi
m=$(wc -l <"$log")
write_policy '[idle]' 'reset = 120' '[chrome]' 'show = "always"' "${metrics[@]}"
if wait_for 3 eval "tail -n +$((m + 1)) '$log' | grep -q 'policy .* changed: in force'"; then
  pass "the fixed policy applies while Lectern runs"
else
  fail "no 'policy … changed: in force' within 3 s of a valid edit"
  show_log "$log" 6
fi
[[ ${#start_page[@]} -gt 0 ]] && check_page_shown "$size" 3

# The metrics file, written every 15 s for node_exporter's textfile collector, parsed by the
# prometheus_client parser of Debian's python3-prometheus-client (hence /usr/bin/python3).
prom=$e2e_stage/metrics/lectern.prom
promcheck() { /usr/bin/python3 "$e2e_root/Tests/e2e/promcheck.py" "$prom" "$@"; }
if wait_for 16 test -s "$prom"; then
  if out=$(promcheck 'lectern_pages_shown_total>=1' 'lectern_documents_opened_total>=1' \
    'lectern_frame_latency_seconds_count>=1' 'lectern_resident_memory_bytes>=1000000' 2>&1); then
    pass "the metrics file parses as Prometheus text: $(cut -c1-160 <<<"$out")"
  else
    fail "the metrics file: $out"
  fi
else
  fail "no metrics file $prom within 16 s"
  show_log "$log" 6
fi

# Speech, started as an operator checking a kiosk would (cage injects no keys): the orientation
# and the page are written to the WAV file, from the speech process under the unit's filter.
ctl() { timeout 5 "${as_user[@]}" env "XDG_RUNTIME_DIR=$e2e_xdg" "$e2e_bin" ctl "$@"; }
wav_bytes() { stat -c %s "$speech_wav" 2>/dev/null || echo 0; }
has_audio() { [[ $(wav_bytes) -gt 100000 ]]; } # over 2 s of 22 kHz 16-bit audio
if ctl speech start >/dev/null && wait_for 10 has_audio; then
  pass "lectern ctl speech start: the speech process wrote $(wav_bytes) bytes of audio to the WAV file"
  ctl speech stop >/dev/null || fail "lectern ctl speech stop failed"
  # Reading turns the pages as it goes: back to page 3 for the exit frame's check.
  ctl goto 3 >/dev/null || fail "lectern ctl goto 3 failed"
else
  fail "lectern ctl speech start: no audio in $speech_wav within 10 s ($(wav_bytes) bytes)"
  show_log "$log" 6
fi

# SIGTERM: Lectern exits cleanly, and cage (whose only client it is) exits after it.
# cage does not pass on its client's exit status, so the log is the evidence.
kill -TERM "$pid" 2>/dev/null || true
if wait_for 5 eval "! kill -0 $pid 2>/dev/null"; then
  if wait_for 5 eval "! session_alive $sid"; then
    pass "SIGTERM: Lectern and cage exited within 5 s"
  else
    fail "SIGTERM: Lectern exited but cage did not within 5 s"
  fi
else
  fail "SIGTERM: Lectern still running 5 s after SIGTERM"
  show_log "$log"
fi
if grep -qiE 'fatal error|assertion|segmentation|backtrace|core dumped' "$log"; then
  fail "the log shows a crash"
  show_log "$log"
fi
if grep -q 'render worker .* ended' "$log"; then
  fail "a render worker died: $(grep -m 1 -o 'render worker .* ended ([^)]*)' "$log")"
fi
if [[ ${#start_page[@]} -gt 0 ]]; then
  [[ $(python3 "$e2e_root/Tests/e2e/pagecolour.py" "$e2e_dump" 2>&1) == "$size page 3" ]] ||
    fail "the frame dump written on exit does not show page 3: $(python3 "$e2e_root/Tests/e2e/pagecolour.py" "$e2e_dump" 2>&1)"
elif ! python3 "$e2e_root/Tests/e2e/pngcheck.py" "$e2e_dump" --size "$size" >/dev/null 2>&1; then
  fail "the frame dump written on exit is not a valid $size page image"
fi
end_session "$sid"
if session_alive "$sid"; then
  fail "processes left behind: $(pgrep -a -s "$sid" | tr '\n' ';')"
else
  pass "no cage or Lectern process left behind"
fi

# The restart (a crash, a watchdog, a deploy): the home view kept at the last run is the first
# frame, committed from its file's own pages (a wl_shm pool on a regular file: cage maps it as
# it maps a memfd), before the document is open; the live page follows. Two starts: the policy
# changed since the first run's home view was kept, so the first start keeps it anew.
# restart LOG: starts Lectern under cage as above, until its live page is committed; sets
# restart_sid and restart_pid (empty when it did not start).
restart() {
  e2e_start "$1" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
    cage -- "${filter[@]}" "$e2e_bin" "${e2e_args[@]}" "${start_page[@]}" --frame-dump "$e2e_dump" \
    --config "$e2e_stage/lectern.toml"
  restart_sid=$e2e_sid
  wait_for 10 grep -q "frame committed $size (page" "$1" || true
  sleep 1
  restart_pid=$(pgrep -o -s "$restart_sid" -f "^(\S*sh )?$e2e_bin( |$)" || true)
}
# stop_restart: SIGTERM to Lectern first (cage, killed while its client runs, fails an assertion).
stop_restart() {
  [[ -n $restart_pid ]] && kill -TERM "$restart_pid" 2>/dev/null
  [[ -n $restart_pid ]] && wait_for 5 eval "! kill -0 $restart_pid 2>/dev/null"
  end_session "$restart_sid"
}
restart "$e2e_stage/cage-restart-1.log"
stop_restart
restart_log=$e2e_stage/cage-restart-2.log
restart "$restart_log"
if grep -q "kept first frame committed $size" "$restart_log"; then
  pass "restart: the kept home view was the first frame ($(grep -o 'kept first frame committed .*' "$restart_log"))"
else
  fail "restart: no 'kept first frame committed $size' ($(grep -o 'first frame: .*' "$restart_log" | head -n 1))"
  show_log "$restart_log" 8
fi
if grep -q "frame committed $size (page" "$restart_log" && [[ -n $restart_pid ]]; then
  pass "restart: the live page followed and Lectern runs on"
else
  fail "restart: no live frame after the kept one, or Lectern ended"
  show_log "$restart_log" 8
fi
[[ ${#start_page[@]} -gt 0 ]] && check_page_shown "$size" 3
stop_restart
if grep -qiE 'fatal error|assertion|segmentation|backtrace|core dumped|render worker .* ended' "$restart_log"; then
  fail "the restart's log shows a crash"
  show_log "$restart_log"
fi

# A book (issue 35): an EPUB written here (a stored zip: mimetype, container, package, two
# chapters), under a name that does not say so, is opened by its content in the render worker
# under the unit's filter, laid out for the screen, and its first page shown.
book=$e2e_stage/book.bin
python3 - "$book" <<'PY'
import sys, zipfile
page = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><h1>{0}</h1>{1}</body></html>'
text = "".join("<p>Sentence %d tells of the harbour and the boats that come home at dusk.</p>" % n for n in range(40))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
    z.writestr("mimetype", "application/epub+zip")
    z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" '
               'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile '
               'full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
    z.writestr("content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
               '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Harbour</dc:title></metadata>'
               '<manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>'
               '<item id="b" href="b.xhtml" media-type="application/xhtml+xml"/></manifest>'
               '<spine><itemref idref="a"/><itemref idref="b"/></spine></package>')
    z.writestr("a.xhtml", page.format("The Harbour", text))
    z.writestr("b.xhtml", page.format("The Lighthouse", text))
PY
chmod a+r "$book"
book_log=$e2e_stage/cage-book.log
e2e_dump=$e2e_stage/book.png
e2e_start "$book_log" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  cage -- "${filter[@]}" "$e2e_bin" "$book" --frame-dump "$e2e_dump"
book_sid=$e2e_sid
if wait_for 15 grep -q "frame committed $size (page 1)" "$book_log"; then
  pass "an EPUB named book.bin: 'frame committed $size (page 1)'"
else
  fail "an EPUB named book.bin: no 'frame committed $size (page 1)' within 15 s"
  show_log "$book_log"
fi
if grep -q "laid .*book.bin out at" "$book_log"; then
  pass "the EPUB was laid out for the screen: $(grep -o 'out at [^:]*: [0-9]* pages' "$book_log" | head -n 1)"
else
  fail "no 'laid ... out at' line for the EPUB in the log"
fi
# Lectern first, as above (cage, killed while its client runs, fails an assertion of its own).
book_pid=$(pgrep -o -s "$book_sid" -f "^(\S*sh )?$e2e_bin( |$)" || true)
[[ -n $book_pid ]] && kill -TERM "$book_pid" 2>/dev/null
[[ -n $book_pid ]] && wait_for 5 eval "! kill -0 $book_pid 2>/dev/null"
end_session "$book_sid"
check_frame_dump "$size"
if grep -qiE 'fatal error|assertion|segmentation|backtrace|core dumped|render worker .* ended' "$book_log"; then
  fail "the EPUB's log shows a crash"
  show_log "$book_log"
fi
e2e_summary
