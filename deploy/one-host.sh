#!/usr/bin/env bash
# The one-host deployment of docs/server.md ("Deployment"): several server processes on
# PostgreSQL, Redis for WebSocket fan-out and the engine queue, and engine workers, all on
# this machine.  PostgreSQL and Redis must be running already.
#
#   deploy/one-host.sh start     start the engine workers, then the server; wait until healthy
#   deploy/one-host.sh stop      stop what start started (SIGTERM, then SIGKILL after 10 s)
#   deploy/one-host.sh status    print /api/health and `randomchess workers`
#
# Settings (environment):
#   RC_DB                  postgresql+psycopg://postgres@127.0.0.1:5432/randomchess
#   RC_REDIS               redis://127.0.0.1:6379
#   RC_HOST, RC_PORT       127.0.0.1, 8000
#   RC_SERVER_WORKERS      2   server processes (uvicorn workers)
#   RC_ENGINE_WORKERS      2   `randomchess worker` processes
#   RC_ENGINE_CONCURRENCY  1   jobs at once per engine worker (one search process each)
#   RC_QUEUE               randomchess-engine
#   RC_RUN                 ./run   pid files and logs
#   RC_BIN                 randomchess   the command (e.g. .venv/bin/randomchess)
#   RC_ENGINES             extra --engine NAME=PATH options for the workers, space-separated
set -euo pipefail

DB=${RC_DB:-postgresql+psycopg://postgres@127.0.0.1:5432/randomchess}
REDIS=${RC_REDIS:-redis://127.0.0.1:6379}
HOST=${RC_HOST:-127.0.0.1}
PORT=${RC_PORT:-8000}
SERVERS=${RC_SERVER_WORKERS:-2}
ENGINES=${RC_ENGINE_WORKERS:-2}
CONCURRENCY=${RC_ENGINE_CONCURRENCY:-1}
QUEUE=${RC_QUEUE:-randomchess-engine}
RUN=${RC_RUN:-./run}
BIN=${RC_BIN:-randomchess}

engine_opts=()
for e in ${RC_ENGINES:-}; do engine_opts+=(--engine "$e"); done

health() {
    local url="http://$HOST:$PORT/api/health"
    if command -v curl >/dev/null; then
        curl -fsS "$url" 2>/dev/null
    else
        python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())' "$url" 2>/dev/null
    fi
}

start() {
    mkdir -p "$RUN"
    if [ -e "$RUN/server.pid" ] && kill -0 "$(cat "$RUN/server.pid")" 2>/dev/null; then
        echo "already running (pid $(cat "$RUN/server.pid"))" >&2
        exit 1
    fi
    for i in $(seq 1 "$ENGINES"); do
        nohup "$BIN" worker --redis "$REDIS" --queue "$QUEUE" --concurrency "$CONCURRENCY" \
            "${engine_opts[@]}" >"$RUN/engine-$i.log" 2>&1 &
        echo $! >"$RUN/engine-$i.pid"
    done
    RANDOMCHESS_ENGINE_QUEUE=$QUEUE nohup "$BIN" serve --host "$HOST" --port "$PORT" \
        --db "$DB" --workers "$SERVERS" --redis "$REDIS" --engine-workers 0 \
        >"$RUN/server.log" 2>&1 &
    echo $! >"$RUN/server.pid"
    for _ in $(seq 1 120); do
        if body=$(health) && [[ $body == *"\"mode\":\"queue\""* ]] &&
            [ "$(grep -o '"pid":' <<<"$body" | wc -l)" -ge "$ENGINES" ]; then
            echo "randomchess on http://$HOST:$PORT/ with $ENGINES engine worker(s)"
            return 0
        fi
        if ! kill -0 "$(cat "$RUN/server.pid")" 2>/dev/null; then
            echo "the server stopped; see $RUN/server.log" >&2
            tail -20 "$RUN/server.log" >&2
            stop
            exit 1
        fi
        sleep 0.5
    done
    echo "not healthy within 60 s; see $RUN/*.log" >&2
    stop
    exit 1
}

stop() {
    local pids=()
    for f in "$RUN"/server.pid "$RUN"/engine-*.pid; do
        [ -e "$f" ] || continue
        pids+=("$(cat "$f")")
        rm -f "$f"
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 1 40); do
        local alive=0
        for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && return 0
        sleep 0.25
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) health; echo; "$BIN" workers --redis "$REDIS" --queue "$QUEUE" ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
