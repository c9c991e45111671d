#!/usr/bin/env bash
# The Debian package (kiosk/package) of the Lectern binary given: built, checked by lintian,
# its dependencies met by this machine's apt, installed with dpkg into a fresh directory tree,
# its units verified by systemd-analyze as if installed over this system (an overlay in a
# private mount namespace: nothing of the host changes), the reader unit's exposure ≤ 2.0, and
# the installed binary showing a PDF under cage, both directly and through kiosk/run.
#
# Usage: Tests/e2e/package.sh PATH/TO/lectern      (as root: dpkg --root, mount namespaces)
# The package normally holds a release build; a debug build works here, and its RUNPATH to the
# toolchain's libraries is the one lintian error allowed (a release build has none).
set -euo pipefail
bin=$(realpath "${1:?usage: Tests/e2e/package.sh PATH/TO/lectern}")
e2e_name=package
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

for tool in dpkg-deb dpkg lintian help2man fakeroot unshare systemd-analyze cage python3; do
  command -v "$tool" >/dev/null || { fail "$tool is not installed (run kiosk/install-deps)"; e2e_summary; exit 1; }
done
[[ $(id -u) -eq 0 ]] || { fail "run as root (dpkg --root, mount namespaces)"; e2e_summary; exit 1; }
e2e_user
trap e2e_cleanup EXIT
LECTERN_E2E_FILE=$e2e_root/Tests/Fixtures/colors-8pages.pdf
e2e_stage "$bin" || { e2e_summary; exit 1; }

# 1. Built.
if deb=$("$e2e_root/kiosk/package" --fast --binary "$bin" --out "$e2e_stage/dist" 2>"$e2e_stage/package.log" | tail -n 1) &&
  [[ -f $deb ]]; then
  pass "kiosk/package built $(basename "$deb") ($(($(stat -c %s "$deb") / 1048576)) MiB)"
else
  fail "kiosk/package failed"
  show_log "$e2e_stage/package.log"
  e2e_summary
  exit 1
fi

# 2. lintian: no error or warning but the debug build's RUNPATH.
allowed='custom-library-search-path RUNPATH /opt/swift'
readelf -d "$bin" | grep -q RUNPATH || allowed='^$'
lintian=$(lintian --pedantic --show-overrides "$deb" 2>/dev/null || true)
findings=$(grep -E '^[EWIP]: ' <<<"$lintian" | grep -v -- "$allowed" || true)
overridden=$(grep -c '^O: ' <<<"$lintian" || true)
if [[ -z $findings ]]; then
  pass "lintian --pedantic: no finding ($overridden overridden in kiosk/lintian-overrides, each with its reason)"
else
  fail "lintian: $findings"
fi

# 3. What `apt install ./lectern_*.deb` would do here: its dependencies are met.
if out=$(apt-get -s install "$deb" 2>&1) && grep -q '^Inst lectern ' <<<"$out"; then
  pass "apt-get -s install $(basename "$deb"): its dependencies are met ($(dpkg-deb -f "$deb" Depends | tr -cd , | wc -c | awk '{print $1 + 1}') named)"
else
  fail "apt-get -s install: $(tail -n 5 <<<"$out")"
fi

# 4. Installed into a fresh tree with dpkg (its maintainer scripts see DPKG_ROOT and change nothing
# outside it).
tree=$e2e_stage/root
mkdir -p "$tree/var/lib/dpkg/info" "$tree/var/lib/dpkg/updates" "$tree/var/log"
touch "$tree/var/lib/dpkg/status"
if dpkg --root="$tree" --force-depends --force-script-chrootless -i "$deb" >"$e2e_stage/dpkg.log" 2>&1 &&
  [[ $(dpkg-query --root="$tree" -W -f='${db:Status-Status}' lectern) == installed ]]; then
  pass "dpkg --root installed it: $(dpkg-query --root="$tree" -L lectern | wc -l) paths"
else
  fail "dpkg --root -i failed"
  show_log "$e2e_stage/dpkg.log"
fi
missing=()
for path in usr/bin/lectern usr/bin/lectern-pull usr/share/lectern/sample.pdf etc/lectern/lectern.toml \
  lib/systemd/system/lectern.service lib/systemd/system/lectern-pull.service lib/systemd/system/lectern-pull.timer \
  usr/share/man/man1/lectern.1.gz usr/share/doc/lectern/copyright lib/udev/rules.d/70-lectern-headphones.rules; do
  [[ -e $tree/$path ]] || missing+=("$path")
done
[[ ${#missing[@]} -eq 0 ]] && pass "the binary, sample, policy, units, udev rules, man page and copyright are in place" ||
  fail "missing from the tree: ${missing[*]}"
if zcat "$tree/usr/share/man/man1/lectern.1.gz" | grep -q -- 'frame\\-dump' &&
  [[ $(dpkg-query --root="$tree" -W -f='${Conffiles}' lectern) == *"/etc/lectern/lectern.toml"* ]]; then
  pass "the man page holds --help's options; the policy is a conffile"
else
  fail "the man page lacks --frame-dump, or the policy is not a conffile"
fi

# 5. The units, verified as if the package were installed over this system.
verify=$(unshare -m sh -c "mount -t overlay overlay -o lowerdir=$tree/usr/bin:/usr/bin /usr/bin &&
  mount -t overlay overlay -o lowerdir=$tree/lib/systemd/system:/lib/systemd/system /lib/systemd/system &&
  systemd-analyze verify lectern.service lectern-pull.service lectern-pull.timer 2>&1 &&
  systemd-analyze security --offline=true lectern.service 2>&1 | tail -n 1" 2>&1) || true
exposure=$(grep -o 'Overall exposure level for lectern.service: [0-9.]*' <<<"$verify" | awk '{print $NF}')
if [[ -n $exposure ]] && [[ $(grep -cv 'Overall exposure' <<<"$verify") -eq 0 ]] &&
  awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }'; then
  pass "systemd-analyze verify: the three units are clean; lectern.service's exposure is $exposure (≤ 2.0)"
else
  fail "systemd-analyze: $verify"
fi

# 6. The installed binary, run where it is, shows a PDF under cage.
chmod 0755 "$e2e_stage" "$tree" "$tree/usr" "$tree/usr/bin"
e2e_bin=$tree/usr/bin/lectern
log=$e2e_stage/cage.log
e2e_start "$log" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  cage -- "$e2e_bin" "${e2e_args[@]}" --page 3 --frame-dump "$e2e_dump"
check_page_shown 1280x720 3
end_session "$e2e_sid"

# 7. kiosk/run with the package installed (in the tree) runs it instead of building.
run_log=$e2e_stage/run.log
run_dir=$e2e_stage/run
if LECTERN_DPKG_ROOT=$tree LECTERN_RUN_SECONDS=4 LECTERN_MODE=headless LECTERN_RUN_DIR=$run_dir \
  "$e2e_root/kiosk/run" "$LECTERN_E2E_FILE" >"$run_log" 2>&1 &&
  grep -q "using the installed package's $tree/usr/bin/lectern" "$run_log" &&
  cmp -s "$run_dir/lectern" "$tree/usr/bin/lectern" && [[ -s $run_dir/frame.png ]]; then
  pass "kiosk/run used the installed package's binary and showed the document"
else
  fail "kiosk/run did not use the installed package"
  show_log "$run_log"
fi

e2e_summary
