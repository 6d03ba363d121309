// The knock-out bracket on the tournament page (issue 34), English and Spanish: a column per
// round, a box per match (seeds, score, winner), every game with its colours, result, setup
// and clock; with the organiser secret, the next game's result and the Armageddon bids.
// A pure view of GET /api/tournaments/<id>/bracket: the page redraws it from the answer.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { loadSeat, request, saveSeat } from './api.js';

const tt = (key, vars = {}) => t(`tournament.${key}`, vars);

function name(ev, n) {
  const p = ev.players.find(x => x.number === n);
  return p ? `${p.name} (${n})` : '—';
}

function roundName(rnd, rounds) {
  const left = rounds - rnd;
  if (left === 0) return tt('final');
  if (left === 1) return tt('semi');
  if (left === 2) return tt('quarter');
  return `${tt('round')} ${rnd}`;
}

function formatLine(f) {
  const parts = [tt('koGames', { n: f.games }) + (f.time_control ? ` (${f.time_control})` : '')];
  for (const s of f.tiebreaks) parts.push(`${tt('koTiebreak')} ${s}`);
  if (f.armageddon) parts.push(`${tt('armageddon')} ${f.armageddon}`);
  return parts.join(' · ');
}

function statusText(r, m) {
  if (m.winner !== null) return m.status === 'bye' ? tt('koBye') : `${tt('koWinner')}`;
  if (!r.open && m.status !== 'waiting') return tt('koUnopened');
  return tt(`ko.${m.status}`);
}

function playerLine(ev, m, n, score) {
  if (n === null) return h('div.ko-player', m.status === 'bye' ? tt('koBye') : '—');
  const won = m.winner === n && m.status !== 'bye';
  return h(won ? 'div.ko-player.ko-winner' : 'div.ko-player', name(ev, n),
    m.status === 'bye' ? '' : h('span.ko-score', ` ${score}`));
}

function gameLine(ev, m, g) {
  const clock = g.black_time_control === null ? g.time_control : `${g.time_control} / ${g.black_time_control}`;
  const setup = g.setup === null ? '' : ` · ${tt('setup')} ${g.setup}`;
  return h('li', { 'data-testid': `t-ko-game-${m.round}-${m.match}-${g.game}` },
    `${g.label}: ${name(ev, g.white)} – ${name(ev, g.black)} ${g.result || '*'}${setup} · ${clock}`,
    g.game_id ? [' · ', h('a', { href: `#/game/${encodeURIComponent(g.game_id)}`,
      'data-testid': `t-ko-watch-${m.round}-${m.match}-${g.game}` }, tt('watch'))] : '');
}

function controls(r, m, post) {
  if (m.status === 'playing' && m.next_game) {
    const id = `${r.round}-${m.match}`;
    const sel = h('select', { 'aria-label': tt('result'), 'data-testid': `t-ko-select-${id}` },
      ['', '1-0', '0-1', '1/2', '+-', '-+', '--'].map(v => h('option', { value: v }, v)));
    const enter = h('button', { type: 'button', 'data-testid': `t-ko-enter-${id}` }, tt('enter'));
    enter.addEventListener('click', () => sel.value && post('games',
      { round: r.round, match: m.match, game: m.next_game, result: sel.value }));
    return h('p.ko-controls', `${tt('game')} ${m.next_game}: `, sel, ' ', enter);
  }
  if (m.status === 'bids') {
    return h('div.ko-controls', [m.top, m.bottom].filter(n => !m.bids_in.includes(n)).map(n => {
      const id = `${r.round}-${m.match}-${n}`;
      const input = h('input', { size: 6, placeholder: tt('bidSeconds'), 'aria-label': `${tt('bid')} ${n}`, 'data-testid': `t-ko-bid-${id}` });
      const send = h('button', { type: 'button', 'data-testid': `t-ko-send-bid-${id}` }, `${tt('bid')} (${n})`);
      send.addEventListener('click', () => post('bids',
        { round: r.round, match: m.match, player: n, bid: input.value }));
      return h('p', input, ' ', send);
    }));
  }
  return null;
}

// ---------------------------------------------------------------- a player's own bid
// A player bids for the Armageddon from their seat (issue 34): the browser that holds a seat
// of one of the match's online games (its token, kept by the game page) proves who bids. The
// bid stays hidden from the opponent until both are in; then the Armageddon opens online with
// the bid clocks and each player takes their seat here. The last answer and the typed bid
// are kept across the page's redraws (every 5 s).
const myStates = new Map();
const myDrafts = new Map();

/** The first seat this browser holds of the match's online games: {game_id, token}. */
function heldSeat(m) {
  for (const g of m.games) {
    const seat = g.game_id ? loadSeat(g.game_id) : null;
    if (seat && seat.token) return { game_id: g.game_id, token: seat.token };
  }
  return null;
}

// The signed-in account's games (their ids), asked at most every 20 s and only when a match
// awaits bids that this browser holds no seat of: a player whose seat is their account's
// (claimed on the game page) bids from any browser they sign in on.
let accountGames = { at: -Infinity, ids: null, asking: null };
function accountGameIds() {
  const now = Date.now();
  if (!accountGames.asking && now - accountGames.at > 20_000) {
    accountGames.at = now;
    accountGames.asking = request('GET', '/api/account/session')
      .then(s => (s.account ? request('GET', '/api/account/games') : { games: [] }))
      .then(r => new Set(r.games.map(g => g.id)), () => new Set())
      .then(ids => { accountGames = { ...accountGames, ids, asking: null }; return ids; });
  }
  return accountGames.ids ? Promise.resolve(accountGames.ids) : accountGames.asking;
}

function myBidBox(ev, r, m) {
  const arm = m.games.find(g => g.black_time_control !== null);
  const armOpen = arm && arm.game_id && arm.result === null;
  if (ev.status !== 'running' || !ev.armageddonBids || (m.status !== 'bids' && !armOpen)) return null;
  const id = `${r.round}-${m.match}`;
  const box = h('div.ko-mybid', { 'data-testid': `t-ko-mybid-${id}` });
  const seat = heldSeat(m);
  const ofAccount = ids => m.games.find(g => g.game_id && ids.has(g.game_id));
  if (seat) fillBidBox(box, ev, r, m, seat);
  else if (accountGames.ids && ofAccount(accountGames.ids)) {  // known: drawn at once
    fillBidBox(box, ev, r, m, { game_id: ofAccount(accountGames.ids).game_id });
  } else {
    accountGameIds().then(ids => {
      const g = ofAccount(ids);
      if (g) fillBidBox(box, ev, r, m, { game_id: g.game_id });
    });
  }
  return box;
}

/** The player's bid box: `seat` {game_id, token} of one of the match's games, or {game_id}
 *  alone for the signed-in account's seat of it. */
function fillBidBox(box, ev, r, m, seat) {
  const id = `${r.round}-${m.match}`;
  const key = `${ev.id}/${id}`;
  const url = `/api/tournaments/${encodeURIComponent(ev.id)}/bids/mine`;
  const body = (extra = {}) => ({ round: r.round, match: m.match, ...seat, ...extra });
  const paint = (state, problem = '') => {
    clear(box);
    box.append(h('h4', tt('myBid')));
    if (state && state.mine === null && state.status === 'bids') {
      const input = h('input', { size: 6, value: myDrafts.get(key) || '', placeholder: tt('bidSeconds'),
        'aria-label': tt('myBid'), 'data-key': `mybid-${id}`, 'data-testid': `t-ko-mybid-input-${id}` });
      input.addEventListener('input', () => myDrafts.set(key, input.value));
      const send = h('button', { type: 'button', 'data-testid': `t-ko-mybid-send-${id}` }, tt('myBidSend'));
      send.addEventListener('click', () => request('POST', url, body({ bid: input.value.trim() }))
        .then(out => { myDrafts.delete(key); myStates.set(key, out); paint(out); })
        .catch(e => paint(state, e.message)));
      box.append(h('p.hint', tt('myBidHelp', { base: state.base })), h('p', input, ' ', send));
    } else if (state && state.mine !== null) {
      box.append(h('p', { 'data-testid': `t-ko-mybid-state-${id}` }, tt('myBidMade', { s: state.mine }),
        state.bids.length < 2 ? ` ${tt('myBidWaiting')}` : ''));
    }
    if (state && state.armageddon_game) {
      const held = loadSeat(state.armageddon_game);
      const colour = tt(state.colour === 'white' ? 'white' : 'black');
      if (held && held.token) {
        box.append(h('p', h('a', { href: `#/game/${encodeURIComponent(state.armageddon_game)}`,
          'data-testid': `t-ko-mybid-play-${id}` }, tt('myBidPlay', { colour }))));
      } else {
        const play = h('button.primary', { type: 'button', 'data-testid': `t-ko-mybid-play-${id}` },
          tt('myBidPlay', { colour }));
        play.addEventListener('click', () => request('POST', `${url}/seat`, body())
          .then(out => {
            saveSeat(out.game_id, { color: out.color, token: out.token, opponent: 'friend' });
            location.hash = `#/game/${encodeURIComponent(out.game_id)}`;
          })
          .catch(e => paint(state, e.message)));
        box.append(h('p', play));
      }
    }
    if (problem) box.append(h('p.error', { role: 'alert', 'data-testid': `t-ko-mybid-error-${id}` }, problem));
  };
  paint(myStates.get(key) || null);
  request('POST', url, body())
    .then(out => {
      const same = JSON.stringify(out) === JSON.stringify(myStates.get(key));
      myStates.set(key, out);
      if (!same) paint(out); // a redraw with nothing new keeps the field being typed in
    })
    .catch(e => paint(myStates.get(key) || null, e.message));
}

function matchBox(ev, r, m, secret, post) {
  const bids = m.bids.length ? h('p.ko-bids', `${tt('bids')}: `,
    m.bids.map(b => `${name(ev, b.player)} ${b.seconds} s`).join(', ')) : null;
  return h('div.ko-match', { 'data-testid': `t-ko-match-${r.round}-${m.match}` },
    h('div.ko-head', `${tt('match')} ${m.match} · `, h('span', { 'data-testid': `t-ko-status-${r.round}-${m.match}` }, statusText(r, m))),
    playerLine(ev, m, m.top, m.score_top), playerLine(ev, m, m.bottom, m.score_bottom),
    m.games.length ? h('ol.ko-games', m.games.map(g => gameLine(ev, m, g))) : null,
    bids,
    r.open ? myBidBox(ev, r, m) : null,
    secret && r.open && ev.status === 'running' ? controls(r, m, post) : null);
}

/** The organiser's button that opens the round's due games on the server (each match's next
 *  game, with its stage's clock); the players' links are shown once, as for a Swiss round. */
function onlineButton(ev, r, secret, post) {
  const due = r.matches.some(m => m.games.some(g => g.result === null && !g.game_id));
  if (!secret || !r.open || ev.status !== 'running' || !due) return null;
  const b = h('button.primary', { type: 'button', 'data-testid': `t-ko-online-${r.round}` }, tt('koOnline'));
  b.addEventListener('click', () => post(`rounds/${r.round}/online`));
  return h('p', b);
}

/** The bracket section; `post(path, body)` sends an organiser step and redraws the page. */
export function bracketView(ev, bracket, secret, post) {
  ev = { ...ev, armageddonBids: bracket.format.armageddon.startsWith('bid:') };
  return h('section.bracket', { 'data-testid': 't-bracket' },
    h('h2', tt('bracket')),
    h('p', formatLine(bracket.format)),
    h('div.bracket-rounds', bracket.rounds.map(r => h('div.bracket-round', { 'data-testid': `t-ko-round-${r.round}` },
      h('h3', roundName(r.round, bracket.rounds.length)),
      onlineButton(ev, r, secret, post),
      r.matches.map(m => matchBox(ev, r, m, secret, post))))),
    bracket.champion !== null ? h('p', { 'data-testid': 't-champion' }, `${tt('champion')}: `,
      h('strong', name(ev, bracket.champion))) : null);
}

/** The players' links of a knock-out round still worth showing (issue 34): those of games not
 *  played yet in matches not decided yet (a decided match's links lead nowhere now). */
export function liveLinks(links, bracket) {
  const where = new Map();
  for (const r of bracket.rounds) {
    for (const m of r.matches) for (const g of m.games) if (g.game_id) where.set(g.game_id, { m, g });
  }
  return links.filter(l => {
    const found = where.get(l.game_id);
    return !found || (found.g.result === null && found.m.winner === null);
  });
}
