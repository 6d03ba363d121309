# One virtual environment, made on first use and refreshed when pyproject.toml changes.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The browser front end (web/, issue 7): npm installs chessgroundx and esbuild from
# web/package-lock.json, and the bundle is built into the package's static folder.
WEB_MODULES := web/node_modules/.package-lock.json
WEB_BUNDLE := src/randomchess/web/static/build/app.js
# The move generator and the engine compiled with mypyc (build_support/native.py): the same
# source, about three times as fast; rebuilt when one of them changes.  Without a C compiler
# the build fails with a message and everything runs as pure Python.
NATIVE := src/randomchess/_compiled/stamp.json
NATIVE_SOURCES := $(addprefix src/randomchess/,geometry.py pieces.py fen.py position.py san.py pgn.py \
	engine/evaluate.py engine/endgame.py engine/search.py explorer/counts.py explorer/reader.py)
# The set-up every target needs: the Python environment, the browser bundle, the compiled
# modules.
SETUP := $(STAMP) $(WEB_BUNDLE) $(NATIVE)

.PHONY: run test test-slow lint bench fuzz clean web native dist package-check fuzz-server api-types games-row

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(WEB_MODULES): web/package.json web/package-lock.json
	@command -v npm >/dev/null || { echo "npm (Node.js >= 20) is needed to build the web front end" >&2; exit 1; }
	cd web && npm ci --no-audit --no-fund --loglevel=error

$(WEB_BUNDLE): $(WEB_MODULES) web/build.mjs $(wildcard web/src/*) $(wildcard web/src/*/*)
	cd web && npm run --silent build

## Rebuild the browser bundle (also done by the set-up).
web: $(WEB_BUNDLE)

## web/src/api_types.js: JSDoc typedefs from the server's OpenAPI document (a test checks it).
api-types: $(SETUP)
	$(PY) build_support/openapi_types.py

## src/randomchess/server/games/row.py: the games row's types from db/schema.py (a test checks it).
games-row: $(STAMP)
	$(PY) build_support/games_row.py

$(NATIVE): $(STAMP) $(NATIVE_SOURCES) build_support/native.py
	$(PY) build_support/native.py || echo "*** mypyc could not compile the engine (a C compiler is needed): it runs as pure Python ***" >&2

## Compile the hot modules with mypyc (also done by the set-up).
native: $(NATIVE)

## The main job: the game server with the web front end on http://127.0.0.1:8000/.
run: $(SETUP)
	$(PY) -m randomchess serve

## The whole test suite (without the slow deep-perft checks), browser tests included.
test: $(SETUP)
	@[ -x /usr/bin/chromium ] || echo "*** /usr/bin/chromium is missing: the browser tests will be SKIPPED (apt-get install -y chromium) ***"
	cd web && node --test test/
	$(PY) -m pytest -q

## Deep perft and other slow checks.
test-slow: $(SETUP)
	$(PY) -m pytest -q -m slow

lint: $(SETUP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy --strict src/randomchess

## Long fuzz campaign of the server's HTTP bodies and WebSocket messages (SQLite and
## PostgreSQL); SERVER_FUZZ_EXAMPLES inputs per target.
## tests/test_fuzz_openapi.py: OPENAPI_FUZZ_EXAMPLES inputs per route of the OpenAPI document.
SERVER_FUZZ_EXAMPLES ?= 20000
OPENAPI_FUZZ_EXAMPLES ?= 500
fuzz-server: $(SETUP)
	RANDOMCHESS_FUZZ_EXAMPLES=$(SERVER_FUZZ_EXAMPLES) $(PY) -m pytest -q -s -p no:cacheprovider tests/test_fuzz_server.py
	RANDOMCHESS_FUZZ_EXAMPLES=$(OPENAPI_FUZZ_EXAMPLES) $(PY) -m pytest -q -s -p no:cacheprovider tests/test_fuzz_openapi.py

## The sdist and the wheel, both carrying the built front end, into dist/: a platform wheel
## with the modules compiled by mypyc (the pure wheel, with a message, without a C compiler).
dist: $(SETUP)
	$(PY) -m build --outdir dist .

## CI's packaging check: compiled wheel from the sdist, clean venv, the compiled modules in
## use with the pure-Python answers, the board renders in chromium.
package-check: $(SETUP)
	bash .ci/check_package.sh

bench: $(SETUP)
	$(PY) bench/perft_bench.py
	$(PY) bench/pgn_bench.py
	$(PY) bench/san_bench.py

## The long fuzzing campaign of the library parsers (FEN, SAN, UCI, PGN, setups): 1,000,000
## inputs or an hour; FUZZ_ARGS="--inputs N --seconds S" to change the bounds.
fuzz: $(SETUP)
	$(PY) bench/fuzz.py $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) dist .pytest_cache .mypy_cache .ruff_cache web/node_modules src/randomchess/web/static/build src/randomchess/_compiled test-artifacts
