#!/usr/bin/env bash
# End to end for kiosk/lectern-pull against a real nginx on loopback with TLS (a self-signed
# certificate made here, trusted through pull.ca-file and its key pinned with pull.pinned-key):
# a new document is installed and Lectern, running under cage (headless) on the policy, shows
# it; a second run gets 304 and changes nothing; a wrong sha256, a truncated file, a download
# cut by --max-time, a 404, a path outside pull.directory and a wrong pin change nothing and
# leave no temporary file; a plain http:// manifest needs pull.signature-key; with
# pull.signature-key a manifest without a signature or signed by another key is refused and a
# well-signed one installed; a pulled policy is installed when Lectern accepts it and refused
# when it does not. "Changes nothing": the pulled directory and the policy's have the same
# files, inodes, sizes and mtimes (find -printf) before and after. Every run is under
# lectern-pull.service's system call filter (Tests/e2e/unit-filter.c); the unit and timer pass
# systemd-analyze verify, and the unit's exposure is at most 2.0.
#
# Usage: Tests/e2e/pull.sh [LECTERN_BINARY]   (default: .build/debug/lectern)
# Prints PASS/FAIL lines and a summary; exits 1 if anything failed.
# See Tests/e2e/lib.sh for the environment variables it understands.
set -euo pipefail
e2e_name=pull
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$e2e_root"

bin=${1:-.build/debug/lectern}
size=1280x720
for tool in nginx curl openssl minisign /usr/bin/python3 cage systemd-analyze setsid timeout pgrep; do
  command -v "$tool" >/dev/null || { fail "$tool is not installed (run kiosk/install-deps)"; e2e_summary; exit 1; }
done

LECTERN_E2E_FILE=""
e2e_user
trap e2e_cleanup EXIT
e2e_stage "$bin" || { e2e_summary; exit 1; }
stage=$e2e_stage
www=$stage/www srv=$stage/srv etc=$stage/etc state=$stage/state web=$stage/nginx
mkdir -p "$www/slow" "$srv" "$etc" "$state" "$web/tmp"

# The server's certificate (127.0.0.1), and its public key's pin.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$web/key.pem" -out "$etc/ca.pem" 2>/dev/null
pin=sha256//$(openssl x509 -in "$etc/ca.pem" -pubkey -noout | openssl pkey -pubin -outform der |
  openssl dgst -sha256 -binary | base64)
other_pin=sha256//$(head -c 32 /dev/urandom | base64)
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=https://127.0.0.1:$port

cat >"$web/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $web/nginx.pid;
error_log $web/error.log;
events { worker_connections 64; }
http {
  access_log $web/access.log;
  client_body_temp_path $web/tmp/body; proxy_temp_path $web/tmp/proxy; fastcgi_temp_path $web/tmp/fastcgi;
  uwsgi_temp_path $web/tmp/uwsgi; scgi_temp_path $web/tmp/scgi;
  types { application/json json; application/pdf pdf; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $etc/ca.pem;
    ssl_certificate_key $web/key.pem;
    root $www;
    # Downloads here take longer than lectern-pull's --max-time 1: they are cut.
    location /slow/ { limit_rate 4k; }
  }
}
EOF
chmod -R a+rX "$stage"
[[ $(id -u) -ne 0 ]] || chown -R "$e2e_run_user:" "$stage"
e2e_start "$web/nginx.out" "$(command -v nginx)" -e stderr -p "$web" -c "$web/nginx.conf"
if wait_for 5 curl -s -o /dev/null --cacert "$etc/ca.pem" "$url/"; then
  note "nginx serves $url (TLS, self-signed)"
else
  fail "nginx did not answer on $url within 5 s"
  show_log "$web/nginx.out"
  show_log "$web/error.log"
  e2e_summary
  exit 1
fi

published=0
# publish [--sign KEY] [--policy FILE] PATH=FILE[@URL][!SIZE][#SHA256]...: copies each FILE to
# www (at URL, default PATH) and writes www/manifest.json listing them (with FILE's size and sha256,
# unless !SIZE or #SHA256 say otherwise), signed by KEY (a minisign secret key, no password).
publish() {
  local sign="" policy=""
  [[ $1 != --sign ]] || { sign=$2; shift 2; }
  [[ $1 != --policy ]] || { policy=$2; shift 2; }
  published=$((published + 1))
  PUBLISHED=$published /usr/bin/python3 - "$www" "$policy" "$@" <<'EOF'
import hashlib, json, os, re, shutil, sys
www, policy, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
def entry(file, url, size=None, sha=None):
    data = open(file, "rb").read()
    os.makedirs(os.path.dirname(os.path.join(www, url)), exist_ok=True)
    shutil.copyfile(file, os.path.join(www, url))
    return {"url": url, "size": int(size) if size else len(data), "sha256": sha or hashlib.sha256(data).hexdigest()}
files = []
for spec in specs:
    path, file, url, size, sha = re.fullmatch(r"([^=]+)=([^@!#]+)(?:@([^!#]+))?(?:!(\d+))?(?:#(\w+))?", spec).groups()
    files.append({"path": path, **entry(file, url or path, size, sha)})
manifest = {"files": files}
if policy:
    manifest["policy"] = entry(policy, "policy.toml")
with open(os.path.join(www, "manifest.json"), "w") as out:
    json.dump(manifest, out, indent=1)
# nginx's ETag is the file's mtime and size: a new second for each version.
stamp = 1_700_000_000 + int(os.environ["PUBLISHED"])
os.utime(os.path.join(www, "manifest.json"), (stamp, stamp))
EOF
  rm -f "$www/manifest.json.minisig"
  [[ -z $sign ]] || minisign -S -s "$sign" -m "$www/manifest.json" -t "lectern pull test" </dev/null >/dev/null
  chmod -R a+rX "$www"
}

# policy LINE...: the policy file (etc/lectern.toml), its [pull] section pointing at nginx.
policy() {
  printf '%s\n' 'document = "../srv/shown.pdf"' '[pull]' "manifest = \"$url/manifest.json\"" \
    'directory = "../srv"' 'ca-file = "ca.pem"' "$@" >"$etc/lectern.toml.new"
  [[ $(id -u) -ne 0 ]] || chown "$e2e_run_user:" "$etc/lectern.toml.new"
  mv "$etc/lectern.toml.new" "$etc/lectern.toml"
}

# pull [OPTION...]: one run of lectern-pull as the run user, under the unit's system call filter
# (curl, minisign and lectern --check-config too); sets status and output.
unit_filter "$e2e_root/kiosk/lectern-pull.service" || true
pull() {
  status=0
  output=$("${as_user[@]}" "${unit_filter[@]}" /usr/bin/env -i PATH=/usr/bin:/bin /usr/bin/python3 "$e2e_root/kiosk/lectern-pull" \
    --config "$etc/lectern.toml" --state "$state" --lectern "$e2e_bin" "$@" 2>&1) || status=$?
}

# What "nothing changed" compares: every file under srv and etc, and its inode, size and mtime.
# (Directories are listed by name only: a file written and removed beside a target changes the
# directory's mtime.)
snapshot() { find "$srv" "$etc" \( -type d -printf '%P/\n' \) -o -printf '%P %i %s %T@\n' | sort; }
litter() { find "$srv" "$etc" "$state" -name '*.lectern-pull*'; }

# expect_refused WHAT PATTERN: the run failed (status 1), logged PATTERN, changed nothing.
expect_refused() {
  local what=$1 pattern=$2 after
  after=$(snapshot)
  if [[ $status -eq 1 && $output == *$pattern* && $after == "$before" && -z $(litter) ]]; then
    pass "$what: exit 1, nothing changed, no temporary file left ($(tail -n 1 <<<"$output" | cut -c1-150))"
  else
    fail "$what: exit $status, changed: $(diff <(echo "$before") <(echo "$after") | tr '\n' ' ')litter: $(litter | tr '\n' ' ')output: $output"
  fi
}

# The unit and timer verify (the unit's ExecStart pointed at this checkout's script), and the
# unit's exposure stays at most 2.0.
sed "s|/usr/local/bin/lectern-pull|$e2e_root/kiosk/lectern-pull|" "$e2e_root/kiosk/lectern-pull.service" \
  >"$stage/lectern-pull.service"
cp "$e2e_root/kiosk/lectern-pull.timer" "$stage/"
if out=$(systemd-analyze verify "$stage/lectern-pull.service" "$stage/lectern-pull.timer" 2>&1) && [[ -z $out ]]; then
  pass "systemd-analyze verify: lectern-pull.service and .timer are clean"
else
  fail "systemd-analyze verify: $out"
fi
exposure=$(systemd-analyze security --offline=true "$stage/lectern-pull.service" 2>&1 |
  sed -n 's/.*Overall exposure level for lectern-pull.service: \([0-9.]*\).*/\1/p')
if [[ -n $exposure ]] && awk "BEGIN { exit !($exposure <= 2.0) }"; then
  pass "lectern-pull.service's exposure (systemd-analyze security --offline=true) is $exposure, at most 2.0"
else
  fail "lectern-pull.service's exposure is ${exposure:-unknown}, over 2.0"
fi

fixtures=$e2e_root/Tests/Fixtures
cp "$fixtures/letter-6pages.pdf" "$srv/shown.pdf"
[[ $(id -u) -ne 0 ]] || chown -R "$e2e_run_user:" "$srv"
policy "pinned-key = \"$pin\""

# Lectern under cage shows srv/shown.pdf (white letter pages, at first).
e2e_start "$stage/cage.log" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  cage -- "$e2e_bin" --frame-dump "$e2e_dump" --config "$etc/lectern.toml"
lectern_shown=false
colour() { python3 "$e2e_root/Tests/e2e/pagecolour.py" "$e2e_dump" 2>&1 || true; }
if wait_for 10 test -s "$e2e_dump"; then
  lectern_shown=true
  if [[ $(colour) == "$size no page colour"* ]]; then
    pass "before the pull, Lectern shows the document in place (white letter pages)"
  else
    fail "before the pull, the frame dump shows: $(colour) (expected the white letter pages)"
  fi
else
  fail "Lectern under cage wrote no frame dump within 10 s"
  show_log "$stage/cage.log"
fi

# 1. New files: installed, and the document shown.
start=$SECONDS
publish shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/boxes.pdf"
pull
if [[ $status -eq 0 ]] && cmp -s "$srv/shown.pdf" "$fixtures/colors-8pages.pdf" &&
  cmp -s "$srv/menu/today.pdf" "$fixtures/boxes.pdf" && [[ -z $(litter) ]]; then
  pass "new files installed (shown.pdf replaced, menu/today.pdf added), no temporary file left: $output"
else
  fail "the first pull: exit $status, litter: $(litter | tr '\n' ' ')output: $output"
fi
$lectern_shown && check_page_shown "$size" 1

# 2. Unchanged: 304, nothing touched.
before=$(snapshot)
pull
if [[ $status -eq 0 && $(snapshot) == "$before" ]] && tail -n 1 "$web/access.log" | grep -q '"GET /manifest.json HTTP/1.1" 304 '; then
  pass "a second run: nginx answered 304 to If-None-Match, nothing changed ($output)"
else
  fail "a second run: exit $status, last request: $(tail -n 1 "$web/access.log"), output: $output"
fi

# 3. A wrong sha256; 4. a truncated file (the manifest has the whole file's size and sha256);
# 5. a download cut by --max-time; 6. a 404; a path outside pull.directory; 7. a server key
# other than the pinned one; a plain http:// manifest without a signature key.
head -c 1000 "$fixtures/search.pdf" >"$stage/search-cut.pdf"
publish shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/search.pdf#$(printf '0%.0s' {1..64})"
pull
expect_refused "a wrong sha256" "sha256"
whole=$(stat -c %s "$fixtures/search.pdf")
sha=$(sha256sum "$fixtures/search.pdf" | cut -d' ' -f1)
publish shown.pdf="$fixtures/colors-8pages.pdf" "menu/today.pdf=$stage/search-cut.pdf!$whole#$sha"
pull
expect_refused "a truncated file served" "bytes, the manifest says $whole"
head -c 262144 /dev/urandom >"$stage/big.bin"
publish shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$stage/big.bin@slow/big.bin"
pull --max-time 1
expect_refused "a download cut after 1 s (nginx limit_rate)" "slow/big.bin"
publish shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/search.pdf"
rm "$www/menu/today.pdf"
pull
expect_refused "a 404" "HTTP 404"
publish shown.pdf="$fixtures/colors-8pages.pdf" ../etc/ca.pem="$fixtures/search.pdf@evil.pem"
pull
expect_refused "a manifest path outside pull.directory (../etc/ca.pem)" "only paths inside pull.directory"
policy "pinned-key = \"$other_pin\""
before=$(snapshot)
pull
expect_refused "a server whose key is not the pinned one" "pinned"
sed -i "s|manifest = \"https://|manifest = \"http://|" "$etc/lectern.toml"
before=$(snapshot)
pull
if [[ $status -eq 2 && $output == *"needs pull.signature-key"* && $(snapshot) == "$before" ]]; then
  pass "a plain http:// manifest without pull.signature-key: exit 2, nothing fetched ($output)"
else
  fail "a plain http:// manifest without pull.signature-key: exit $status, output: $output"
fi
policy "pinned-key = \"$pin\""

# 8. Signatures: required by pull.signature-key.
minisign -G -W -p "$etc/pull.pub" -s "$stage/pull.key" >/dev/null
minisign -G -W -p "$stage/other.pub" -s "$stage/other.key" >/dev/null
[[ $(id -u) -ne 0 ]] || chown "$e2e_run_user:" "$etc/pull.pub"
policy "pinned-key = \"$pin\"" 'signature-key = "pull.pub"'
publish shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/search.pdf"
before=$(snapshot)
pull
expect_refused "a manifest without a signature" "manifest.json.minisig: HTTP 404"
publish --sign "$stage/other.key" shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/search.pdf"
pull
expect_refused "a manifest signed by another key" "signature does not verify"
publish --sign "$stage/pull.key" shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/search.pdf"
pull
if [[ $status -eq 0 ]] && cmp -s "$srv/menu/today.pdf" "$fixtures/search.pdf" && [[ -z $(litter) ]]; then
  pass "a manifest signed by pull.signature-key: menu/today.pdf replaced ($output)"
else
  fail "a well-signed manifest: exit $status, output: $output"
fi

# 9. The policy in the manifest: refused when Lectern refuses it, installed when it accepts it.
sed 's/^\[pull\]$/[layout]\nspreads = "triple"\n[pull]/' "$etc/lectern.toml" >"$stage/bad.toml"
sed 's/^\[pull\]$/[idle]\nreset = 60\n[pull]/' "$etc/lectern.toml" >"$stage/good.toml"
publish --sign "$stage/pull.key" --policy "$stage/bad.toml" shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/search.pdf"
before=$(snapshot)
pull
expect_refused "a pulled policy Lectern refuses" "layout.spreads"
publish --sign "$stage/pull.key" --policy "$stage/good.toml" shown.pdf="$fixtures/colors-8pages.pdf" menu/today.pdf="$fixtures/search.pdf"
logged=$(wc -l <"$stage/cage.log")
pull
if [[ $status -eq 0 ]] && cmp -s "$etc/lectern.toml" "$stage/good.toml" && [[ -z $(litter) ]]; then
  pass "a pulled policy Lectern accepts replaces the policy ($output)"
else
  fail "a good pulled policy: exit $status, output: $output"
fi
if $lectern_shown; then
  # shellcheck disable=SC2016 # expanded by eval
  if wait_for 3 eval 'tail -n +$((logged + 1)) "$stage/cage.log" | grep -q "policy .* changed: in force"'; then
    pass "Lectern applies the pulled policy ($(tail -n +$((logged + 1)) "$stage/cage.log" | grep -m 1 -o 'policy .* changed: in force'))"
  else
    fail "no 'policy … changed: in force' in Lectern's log within 3 s of the pulled policy"
    show_log "$stage/cage.log" 8
  fi
fi

# 10. A new kiosk: the policy names a document it does not have yet; the pull brings it,
policy "pinned-key = \"$pin\"" 'signature-key = "pull.pub"'
sed -i 's|^document = .*|document = "../srv/first.pdf"|' "$etc/lectern.toml"
publish --sign "$stage/pull.key" shown.pdf="$fixtures/colors-8pages.pdf" first.pdf="$fixtures/boxes.pdf"
# and a run that was killed left a temporary file: this run removes it.
touch "$srv/menu/.today.pdf.k1ll3d.lectern-pull"
pull
if [[ $status -eq 0 && $output == *"no such document"*"removing $srv/menu/.today.pdf.k1ll3d.lectern-pull"*"installed $srv/first.pdf"* ]] &&
  cmp -s "$srv/first.pdf" "$fixtures/boxes.pdf" && [[ -z $(litter) ]]; then
  pass "a policy naming a document not there yet: the problem logged, the document pulled, a killed run's file removed"
else
  fail "a policy naming a document not there yet: exit $status, output: $output"
fi
note "the pulls took $((SECONDS - start)) s"
$lectern_shown && check_page_shown "$size" 1
if grep -qiE 'fatal error|assertion|segmentation|backtrace|core dumped' "$stage/cage.log"; then
  fail "Lectern's log shows a crash"
  show_log "$stage/cage.log"
fi
e2e_summary
