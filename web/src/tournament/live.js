// The live section of an event page pushed over a WebSocket (issue 31): the round's boards as
// moves arrive from scoresheet entry or an e-board relay, within a second of being stored
// (WS /ws/tournaments/{id}/rounds/{r}/live, server/tournaments/live.py). While the socket is
// down the page asks GET .../live every POLL_MS and opens the socket again.

const POLL_MS = 1000;
const RETRY_MS = 3000;
const PING_MS = 25000;

/**
 * Follows the live boards of event `id`: follow(round) picks the round (null: none);
 * onLive(answer) gets every answer ({round, boards}); poll(round) → Promise<answer|null> is
 * the GET used while the socket is down. Returns {follow, destroy}.
 */
export function followLive(id, { onLive, poll }) {
  let round = null;
  let ws = null;
  let retry = null;
  let poller = null;
  let pinger = null;
  let closed = false;

  const url = r => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}` +
    `/ws/tournaments/${encodeURIComponent(id)}/rounds/${r}/live`;

  function stopPolling() {
    clearInterval(poller);
    poller = null;
  }

  function startPolling() {
    if (poller || closed || round === null) return;
    const r = round;
    poller = setInterval(async () => {
      if (document.hidden || r !== round) return;
      const out = await poll(r).catch(() => null);
      if (out && r === round && !closed) onLive(out);
    }, POLL_MS);
  }

  function drop() {
    clearTimeout(retry);
    clearInterval(pinger);
    retry = null;
    pinger = null;
    if (ws) {
      const old = ws;
      ws = null;
      old.onclose = null;
      old.close();
    }
  }

  function open() {
    drop();
    if (closed || round === null) return;
    const r = round;
    let sock;
    try {
      sock = new WebSocket(url(r));
    } catch {
      startPolling();
      return;
    }
    ws = sock;
    sock.onopen = () => {
      stopPolling();
      pinger = setInterval(() => sock.readyState === 1 && sock.send('{"type":"ping"}'), PING_MS);
    };
    sock.onmessage = ev => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === 'live' && r === round && !closed) onLive(msg.live);
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      ws = null;
      clearInterval(pinger);
      startPolling();
      retry = setTimeout(open, RETRY_MS);
    };
  }

  return {
    follow(r) {
      if (r === round) return;
      round = r;
      stopPolling();
      open();
    },
    destroy() {
      closed = true;
      stopPolling();
      drop();
    },
  };
}
