// The knock-out bracket on the tournament page (issue 34), English and Spanish: a column per
// round, a box per match (seeds, score, winner), every game with its colours, result, setup
// and clock; with the organiser secret, the next game's result and the Armageddon bids.
// A view of GET /api/tournaments/<id>/bracket: the page redraws it from the answer; what the
// organiser and the players may enter, and the players' bids, are the controller's (ctrl.js).

import { h, clear } from '../dom.js';
import { loadSeat, request, saveSeat } from '../api.js';
import { draft, draftSelect } from './common.js';
import {
  RESULTS, armageddonBids, bidBoxShown, createBidsCtrl, heldSeat, koOnlineDue, matchControls, myBidView,
  tournamentApi, tt,
} from './ctrl.js';

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

// The result chosen and the bids typed live in the page's ui.drafts, as the pairing table's
// menus do: the page redraws itself every 5 s, and a menu or field drawn afresh between the
// organiser's choice and their click would send nothing, or an empty bid.
function controls(r, m, ui, post) {
  const may = matchControls(m);
  if (may && may.result) {
    const id = `${r.round}-${m.match}`;
    const key = `ko-result-${id}-${may.result}`;
    const sel = draftSelect(ui, key, { 'aria-label': tt('result'), 'data-testid': `t-ko-select-${id}` },
      RESULTS.map(v => h('option', { value: v }, v)));
    const enter = h('button', { type: 'button', 'data-testid': `t-ko-enter-${id}` }, tt('enter'));
    enter.addEventListener('click', () => sel.value && post('games',
      { round: r.round, match: m.match, game: may.result, result: sel.value }, [key]));
    return h('p.ko-controls', `${tt('game')} ${may.result}: `, sel, ' ', enter);
  }
  if (may && may.bids) {
    return h('div.ko-controls', may.bids.map(n => {
      const id = `${r.round}-${m.match}-${n}`;
      const key = `ko-bid-${id}`;
      const input = draft(ui, key, { size: 6, placeholder: tt('bidSeconds'), 'aria-label': `${tt('bid')} ${n}`, 'data-testid': `t-ko-bid-${id}` });
      const send = h('button', { type: 'button', 'data-testid': `t-ko-send-bid-${id}` }, `${tt('bid')} (${n})`);
      send.addEventListener('click', () => post('bids',
        { round: r.round, match: m.match, player: n, bid: input.value }, [key]));
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
// are kept across the page's redraws (every 5 s) by the controller (ctrl.js, createBidsCtrl).
const bids = createBidsCtrl(tournamentApi(request));

function myBidBox(ev, r, m) {
  if (!bidBoxShown(ev, m, ev.armageddonBids)) return null;
  const id = `${r.round}-${m.match}`;
  const box = h('div.ko-mybid', { 'data-testid': `t-ko-mybid-${id}` });
  const seat = heldSeat(m, loadSeat);
  // A player whose seat is their account's (claimed on the game page) bids from any browser
  // they sign in on: the account's games, asked only when this browser holds no seat.
  const ofAccount = ids => m.games.find(g => g.game_id && ids.has(g.game_id));
  const known = bids.knownGames();
  if (seat) fillBidBox(box, ev, r, m, seat);
  else if (known && ofAccount(known)) {  // known: drawn at once
    fillBidBox(box, ev, r, m, { game_id: ofAccount(known).game_id });
  } else {
    bids.accountGameIds().then(ids => {
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
  const body = (extra = {}) => ({ round: r.round, match: m.match, ...seat, ...extra });
  const paint = (state, problem = '') => {
    clear(box);
    box.append(h('h4', tt('myBid')));
    const shown = myBidView(state, state && state.armageddon_game ? loadSeat(state.armageddon_game) : null);
    if (shown.input) {
      const input = h('input', { size: 6, value: bids.drafts.get(key) || '', placeholder: tt('bidSeconds'),
        'aria-label': tt('myBid'), 'data-key': `mybid-${id}`, 'data-testid': `t-ko-mybid-input-${id}` });
      input.addEventListener('input', () => bids.drafts.set(key, input.value));
      const send = h('button', { type: 'button', 'data-testid': `t-ko-mybid-send-${id}` }, tt('myBidSend'));
      send.addEventListener('click', () => bids.send(ev.id, key, body({ bid: input.value.trim() }))
        .then(out => paint(out.state))
        .catch(e => paint(state, e.message)));
      box.append(h('p.hint', tt('myBidHelp', { base: shown.base })), h('p', input, ' ', send));
    } else if (shown.made) {
      box.append(h('p', { 'data-testid': `t-ko-mybid-state-${id}` }, tt('myBidMade', { s: shown.made.seconds }),
        shown.made.waiting ? ` ${tt('myBidWaiting')}` : ''));
    }
    if (shown.play) {
      const colour = tt(shown.play.colour);
      if (shown.play.held) {
        box.append(h('p', h('a', { href: `#/game/${encodeURIComponent(shown.play.game)}`,
          'data-testid': `t-ko-mybid-play-${id}` }, tt('myBidPlay', { colour }))));
      } else {
        const play = h('button.primary', { type: 'button', 'data-testid': `t-ko-mybid-play-${id}` },
          tt('myBidPlay', { colour }));
        play.addEventListener('click', () => bids.seat(ev.id, body())
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
  paint(bids.answers.get(key) || null);
  bids.send(ev.id, key, body())
    .then(out => { if (out.changed) paint(out.state); }) // nothing new: the field being typed in stays
    .catch(e => paint(bids.answers.get(key) || null, e.message));
}

function matchBox(ev, r, m, secret, ui, post) {
  const bids = m.bids.length ? h('p.ko-bids', `${tt('bids')}: `,
    m.bids.map(b => `${name(ev, b.player)} ${b.seconds} s`).join(', ')) : null;
  return h('div.ko-match', { 'data-testid': `t-ko-match-${r.round}-${m.match}` },
    h('div.ko-head', `${tt('match')} ${m.match} · `, h('span', { 'data-testid': `t-ko-status-${r.round}-${m.match}` }, statusText(r, m))),
    playerLine(ev, m, m.top, m.score_top), playerLine(ev, m, m.bottom, m.score_bottom),
    m.games.length ? h('ol.ko-games', m.games.map(g => gameLine(ev, m, g))) : null,
    bids,
    r.open ? myBidBox(ev, r, m) : null,
    secret && r.open && ev.status === 'running' ? controls(r, m, ui, post) : null);
}

/** The organiser's button that opens the round's due games on the server (each match's next
 *  game, with its stage's clock); the players' links are shown once, as for a Swiss round. */
function onlineButton(ev, r, secret, post) {
  if (!koOnlineDue(ev, r, secret)) return null;
  const b = h('button.primary', { type: 'button', 'data-testid': `t-ko-online-${r.round}` }, tt('koOnline'));
  b.addEventListener('click', () => post(`rounds/${r.round}/online`));
  return h('p', b);
}

/** The bracket section; `post(path, body, keys)` sends an organiser step and redraws the page
 *  (`keys`: the `ui.drafts` it was chosen or typed in, forgotten once it is made). */
export function bracketView(ev, bracket, secret, ui, post) {
  ev = { ...ev, armageddonBids: armageddonBids(bracket.format) };
  return h('section.bracket', { 'data-testid': 't-bracket' },
    h('h2', tt('bracket')),
    h('p', formatLine(bracket.format)),
    h('div.bracket-rounds', bracket.rounds.map(r => h('div.bracket-round', { 'data-testid': `t-ko-round-${r.round}` },
      h('h3', roundName(r.round, bracket.rounds.length)),
      onlineButton(ev, r, secret, post),
      r.matches.map(m => matchBox(ev, r, m, secret, ui, post))))),
    bracket.champion !== null ? h('p', { 'data-testid': 't-champion' }, `${tt('champion')}: `,
      h('strong', name(ev, bracket.champion))) : null);
}
