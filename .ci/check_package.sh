#!/usr/bin/env bash
# Packaging check (issue 13): the sdist and the wheel carry the built web front end; the
# wheel, built from the sdist with no npm on the PATH and installed into a clean venv, serves
# the app, and its board renders in headless chromium with no CSP violation
# (tests/served_app_check.py, with the test venv's Playwright).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="$PWD/.venv/bin/python"
tmp="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

"$PY" -m build --sdist --outdir "$tmp/dist" . >"$tmp/build-sdist.log" 2>&1 \
    || { cat "$tmp/build-sdist.log"; exit 1; }
sdist="$(ls "$tmp"/dist/*.tar.gz)"
mkdir "$tmp/no-npm"  # a PATH without npm: the wheel must come from the sdist alone
PATH="$tmp/no-npm" "$PY" -m build --wheel --outdir "$tmp/dist" "$sdist" >"$tmp/build-wheel.log" 2>&1 \
    || { cat "$tmp/build-wheel.log"; exit 1; }
wheel="$(ls "$tmp"/dist/*.whl)"
"$PY" - "$sdist" "$wheel" <<'PYEOF'
import sys, tarfile, zipfile
sdist = tarfile.open(sys.argv[1]).getnames()
wheel = zipfile.ZipFile(sys.argv[2]).namelist()
for name, names, want in (
    ("sdist", sdist, ["src/randomchess/web/static/build/app.js", "web/src/main.js",
                      "build_support/backend.py"]),
    ("wheel", wheel, ["randomchess/web/static/build/app.js",
                      "randomchess/web/static/build/app.css",
                      "randomchess/web/static/index.html",
                      "randomchess/db/migrations/versions/0001_initial.py"]),
):
    for w in want:
        if not any(n.endswith(w) for n in names):
            sys.exit(f"the {name} lacks {w}")
print(f"sdist and wheel carry the front end: {sys.argv[2].rsplit('/', 1)[-1]}")
PYEOF

python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" 2>&1 | grep -v '^WARNING: Location' || true
cd "$tmp"  # away from the source tree: only the installed package is importable
"$tmp/venv/bin/randomchess" --version
port="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$tmp/venv/bin/randomchess" serve --port "$port" --db "sqlite:///$tmp/games.sqlite3" \
    >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 150); do
    if "$PY" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" \
        "http://127.0.0.1:$port/api/health" 2>/dev/null; then break; fi
    kill -0 "$server" 2>/dev/null || { cat "$tmp/server.log"; exit 1; }
    sleep 0.2
done
"$PY" "$OLDPWD/tests/served_app_check.py" "http://127.0.0.1:$port" \
    || { cat "$tmp/server.log"; exit 1; }
