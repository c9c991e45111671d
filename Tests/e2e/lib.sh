# shellcheck shell=bash
# Variables set here (e2e_bin, e2e_args, ...) are used by the scripts that source it.
# shellcheck disable=SC2034
# Shared by Tests/e2e/cage.sh and Tests/e2e/weston.sh: staging Lectern where an
# unprivileged user can run it, PASS/FAIL lines, bounded waits, and cleanup.
#
# Environment:
#   LECTERN_USER       user the compositor and Lectern run as when the script runs as root
#                      (default: kiosk, created if missing)
#   LECTERN_E2E_FILE   PDF to open (cage.sh and weston.sh: default the colour fixture at page 3;
#                      empty: Lectern opens its bundled sample)
#   LECTERN_E2E_OPTIONS  more lectern options for every run ("--render-process on")
#   LECTERN_E2E_KEEP=1 keep the staging directory (logs, frame dump) even when all passed

: "${e2e_name:?set e2e_name before sourcing lib.sh}"
e2e_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
e2e_passes=0
e2e_failures=0
e2e_sessions=()
e2e_stage=""

pass() { echo "PASS $e2e_name: $*"; e2e_passes=$((e2e_passes + 1)); }
fail() { echo "FAIL $e2e_name: $*"; e2e_failures=$((e2e_failures + 1)); }
note() { echo "     $e2e_name: $*"; }

# Finds the run user and prepares `as_user`: a command prefix that runs as that user.
e2e_user() {
  if [[ $(id -u) -eq 0 ]]; then
    e2e_run_user=${LECTERN_USER:-kiosk}
    id -u "$e2e_run_user" >/dev/null 2>&1 || {
      fail "no user '$e2e_run_user' to run the compositor as (run kiosk/install-deps: it creates it)"
      e2e_summary
      exit 1
    }
    as_user=(runuser -u "$e2e_run_user" --)
  else
    e2e_run_user=$(id -un)
    as_user=()
  fi
}

# e2e_stage BINARY: copies Lectern, its resource bundle and the PDF to a fresh directory
# the run user can read and write (the repository may be root's), and makes a private
# XDG_RUNTIME_DIR in it. Sets e2e_stage, e2e_bin, e2e_xdg, e2e_dump, e2e_args.
e2e_stage() {
  local bin=$1
  if [[ ! -x $bin ]]; then
    fail "no Lectern binary at $bin (build it first: swift build --product lectern)"
    return 1
  fi
  e2e_stage=$(mktemp -d "/tmp/lectern-e2e-$e2e_name.XXXXXX")
  chmod 0755 "$e2e_stage"
  cp "$bin" "$e2e_stage/lectern"
  # SwiftPM's resource bundle (Lectern_lectern.resources) holds the sample document.
  local bundle
  for bundle in "$(dirname "$bin")"/*_lectern.resources; do
    [[ -d $bundle ]] && cp -r "$bundle" "$e2e_stage/"
  done
  # The chrome's catalogs beside the binary, where it looks first (as kiosk/run stages them).
  "$e2e_root/kiosk/po/compile" "$e2e_stage/locale" || fail "kiosk/po/compile failed (msgfmt: kiosk/install-deps)"
  e2e_args=()
  if [[ -n ${LECTERN_E2E_FILE:-} ]]; then
    cp "$LECTERN_E2E_FILE" "$e2e_stage/document.pdf"
    e2e_args=("$e2e_stage/document.pdf")
  fi
  # More options for every run (LECTERN_E2E_OPTIONS="--render-process on": the render worker).
  read -r -a more <<<"${LECTERN_E2E_OPTIONS:-}"
  e2e_args+=("${more[@]}")
  e2e_xdg=$e2e_stage/xdg
  mkdir -m 0700 "$e2e_xdg"
  [[ $(id -u) -eq 0 ]] && chown -R "$e2e_run_user:" "$e2e_stage"
  e2e_bin=$e2e_stage/lectern
  e2e_dump=$e2e_stage/frame.png
  return 0
}

# e2e_start LOG CMD...: starts CMD as the run user in a new session (so every process it
# starts can be found and ended by session id), under a hard timeout, with nothing
# inherited from the caller's environment. Sets e2e_sid (also the pid of the session
# leader, whose exit status is CMD's: `wait "$e2e_sid"`).
e2e_start() {
  local log=$1
  shift
  # Not a process group leader (no job control in scripts), so setsid does not fork.
  setsid timeout --kill-after=5 "${LECTERN_E2E_TIMEOUT:-90}" "${as_user[@]}" \
    env -i "HOME=$e2e_stage" "PATH=/usr/local/bin:/usr/bin:/bin" "LANG=C.UTF-8" \
    "XDG_RUNTIME_DIR=$e2e_xdg" "$@" >"$log" 2>&1 &
  e2e_sid=$!
  e2e_sessions+=("$e2e_sid")
}

session_alive() { pgrep -s "$1" >/dev/null 2>&1; }

# wait_for SECONDS CMD...: polls CMD every 0.1 s until it succeeds; fails after SECONDS.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# Ends everything in a session: SIGTERM, then SIGKILL after 3 s.
end_session() {
  local sid=$1
  session_alive "$sid" || return 0
  pkill -TERM -s "$sid" 2>/dev/null || true
  wait_for 3 eval "! session_alive $sid" || pkill -KILL -s "$sid" 2>/dev/null || true
  wait_for 2 eval "! session_alive $sid" || true
}

# show_log FILE: the end of a log, without wlroots' per-frame scanout noise.
show_log() {
  [[ -f $1 ]] || return 0
  echo "----- last lines of $1"
  grep -v 'Basic output test failed' "$1" | tail -n "${2:-25}" | sed 's/^/    /'
  echo "-----"
}

e2e_cleanup() {
  local sid
  for sid in "${e2e_sessions[@]}"; do end_session "$sid"; done
  if [[ -n $e2e_stage && -d $e2e_stage ]]; then
    if [[ $e2e_failures -gt 0 || ${LECTERN_E2E_KEEP:-0} == 1 ]]; then
      note "logs and frame dump kept in $e2e_stage"
    else
      rm -rf "$e2e_stage"
    fi
  fi
}

# check_page_shown WxH PAGE: within 5 s the frame dump (size WxH) shows page PAGE of the
# colour fixture (Tests/Fixtures/colors-8pages.pdf), by its colour.
check_page_shown() {
  local size=$1 page=$2 shown
  if wait_for 5 eval '[[ $(python3 "$e2e_root/Tests/e2e/pagecolour.py" "$e2e_dump" 2>/dev/null) == "$size page $page" ]]'; then
    pass "the frame shows page $page of the colour fixture ($size)"
  else
    shown=$(python3 "$e2e_root/Tests/e2e/pagecolour.py" "$e2e_dump" 2>&1 || true)
    fail "the frame dump shows: $shown (expected $size page $page)"
  fi
}

# check_frame_dump WxH: the frame dump exists, has the output size and shows a page.
check_frame_dump() {
  local size=$1 out
  if ! wait_for 5 test -s "$e2e_dump"; then
    fail "no frame dump written to $e2e_dump within 5 s"
    return
  fi
  if out=$(python3 "$e2e_root/Tests/e2e/pngcheck.py" "$e2e_dump" --size "$size" 2>&1); then
    pass "frame dump ${out#"$e2e_dump: "}"
  else
    fail "frame dump: ${out#"$e2e_dump: "}"
  fi
}

# write_policy LINE...: replaces the policy file $e2e_stage/lectern.toml with LINEs, as a deploy
# tool does (a new file renamed over it), owned by the run user.
write_policy() {
  printf '%s\n' "$@" >"$e2e_stage/lectern.toml.new"
  [[ $(id -u) -ne 0 ]] || chown "$e2e_run_user:" "$e2e_stage/lectern.toml.new"
  mv "$e2e_stage/lectern.toml.new" "$e2e_stage/lectern.toml"
}

# unit_filter UNIT: sets unit_filter to a command prefix that runs a command under UNIT's
# SystemCallFilter= as systemd would apply it (a system call it leaves out kills the process):
# its groups expanded by systemd-analyze (Tests/e2e/unit-filter.py), enforced by
# Tests/e2e/unit-filter.c, built into the stage. Returns 1 (and fails) when it cannot.
unit_filter() {
  local unit=$1 name cc
  name=$(basename "$unit" .service)
  unit_filter=()
  cc=$(command -v cc || command -v clang || true)
  if ! command -v systemd-analyze >/dev/null || [[ -z $cc ]]; then
    fail "no systemd-analyze or C compiler to apply $name's system call filter (run kiosk/install-deps)"
    return 1
  fi
  if python3 "$e2e_root/Tests/e2e/unit-filter.py" "$unit" >"$e2e_stage/$name.syscalls" &&
    "$cc" -O2 -o "$e2e_stage/unit-filter" "$e2e_root/Tests/e2e/unit-filter.c" -lseccomp; then
    chmod 0755 "$e2e_stage/unit-filter"
    chmod 0644 "$e2e_stage/$name.syscalls"
    unit_filter=("$e2e_stage/unit-filter" "$e2e_stage/$name.syscalls" --)
  else
    fail "cannot build $name's system call filter (Tests/e2e/unit-filter.py, unit-filter.c)"
    return 1
  fi
}

e2e_summary() {
  echo "$e2e_name: $e2e_passes passed, $e2e_failures failed"
  [[ $e2e_failures -eq 0 ]]
}
