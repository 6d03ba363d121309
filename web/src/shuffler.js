// Shuffler page for arbiters: ordinary and seeded draws, verifiable rounds (commit before the
// event, derive each round from the salt), diagrams and printable setup cards.

import { h, clear } from './dom.js';
import { errorKey } from './game/messages.js';
import { t, localizeLetters } from './i18n.js';
import {
  SetupPool, bishopsSameColour, commitment, drawRandom, drawSeeded, evaluationDigest, fromHex, gameCommitment,
  gameSetup, hallRoundSetups, isNumbered, newSalt, outsideBand, rankOf, roundSetups, setupFen, setupList, toHex,
} from './setups.js';
import { request } from './api.js';
import { diagram } from './diagram.js';
import { statsHref } from './setupstats.js';
import { allVariants, castlingOf, numberLabel, variantInfo, variantName } from './variants.js';
import { balancePanel, evaluationLine } from './setup_eval.js';
import { briefBox } from './setup_brief.js';

const FILES = 'abcdefghijklmnop';

// The castling squares of `info` on White's first rank, as the metadata gives them.
function castlingSquares(info) {
  const { a, h: far } = castlingOf(info);
  const sq = f => `${FILES[f]}${(info.setup.margin || 0) + 1}`; // IFRC castles on rank 2
  return [[info.castling_far_side.san, far], [info.castling_a_side.san, a]]
    .map(([san, side]) => [san, `K${sq(side.king)} R${sq(side.rook)}`]);
}

function card(info, number, label) {
  const rank = rankOf(info, number);
  const placement = setupFen(info, rank);
  return h('article.card', { 'data-testid': 'setup-card', 'data-variant': info.key },
    label ? h('h3', label) : '',
    h('p.num', `${variantName(info.key)} #`, h('strong', { 'data-testid': 'card-number' }, numberLabel(info.key, number))),
    h('p.rank', { 'data-testid': 'card-rank' }, localizeLetters(rank)),
    diagram(placement),
    h('p.small', { 'data-testid': 'card-castling' }, `${t('castlingSquares')}: `,
      castlingSquares(info).map(([s, sq]) => `${s} ${localizeLetters(sq)}`).join(' · ')),
    info.adjustment_partners.length && bishopsSameColour(rank) ? h('p.note', t('sameBishops')) : '',
    isNumbered(info) ? evaluationLine(info.key, number) : '',
    isNumbered(info) ? briefBox(info.key, number) : '',
    h('p.small.noprint', h('a', { href: statsHref(info.key, number), 'data-testid': 'card-stats' },
      t('setupStats'))));
}

/** "Verify a game's setup" (issue 32, docs/shuffler.md §10): the server seed, the client
 * value and the variant give the setup, computed here in the browser; the seed's SHA-256 is
 * checked against the commitment the seek showed. `query` may prefill it (the game page's
 * link: seed, client, variant, commit). */
function verifyGameBox(numbered, out, err, query) {
  const variant = h('select', { 'data-testid': 'vg-variant' },
    numbered.map(v => h('option', { value: v.key }, variantName(v.key))));
  const seed = h('input', { type: 'text', size: '66', 'data-testid': 'vg-seed', spellcheck: 'false',
    autocomplete: 'off' });
  const client = h('input', { type: 'text', size: '66', 'data-testid': 'vg-client', spellcheck: 'false',
    autocomplete: 'off' });
  const commit = h('input', { type: 'text', size: '66', 'data-testid': 'vg-commit', spellcheck: 'false',
    autocomplete: 'off' });
  const check = h('output.check', { 'data-testid': 'vg-check' });
  const box = h('details.round', { 'data-testid': 'verify-game' }, h('summary', t('verifyGameTitle')),
    h('p.hint', t('verifyGameHelp')),
    h('div.form-row', h('label.field', t('variant'), ' ', variant)),
    h('div.form-row', h('label.field', t('serverSeed'), ' ', seed)),
    h('div.form-row', h('label.field', t('clientValue'), ' ', client)),
    h('div.form-row', h('label.field', t('setupCommit'), ' ', commit)),
    h('button.primary', { type: 'button', 'data-testid': 'vg-verify', onclick: verify }, t('verifyGameBtn')),
    ' ', check);
  async function verify() {
    err.textContent = '';
    check.textContent = '';
    delete check.dataset.match;
    clear(out);
    try {
      const info = variantInfo(variant.value);
      const key = fromHex(seed.value.trim());
      const value = client.value.trim() === '-' ? '' : client.value.trim();
      const number = await gameSetup(key, value, new SetupPool(info));
      const want = commit.value.trim().toLowerCase();
      if (want) {
        const same = want === await gameCommitment(key);
        check.dataset.match = same ? 'yes' : 'no';
        check.textContent = same ? t('gameCommitMatches') : t('gameCommitDiffers');
        check.className = same ? 'check note' : 'check error';
      }
      out.append(card(info, number, t('verifyGameCard')));
    } catch (e) {
      err.textContent = t(e.key === 'err.badSalt' ? 'err.badServerSeed' : e.key || errorKey(e));
    }
  }
  if (query && query.get('seed')) {
    if (numbered.some(v => v.key === query.get('variant'))) variant.value = query.get('variant');
    seed.value = query.get('seed') || '';
    client.value = query.get('client') || '';
    commit.value = query.get('commit') || '';
    box.open = true;
    verify();
  }
  return box;
}

export function renderShuffler(root, query = null) {
  // The numbered variants the server serves (GET /api/variants).
  const numbered = allVariants().filter(isNumbered);
  const variantSel = h('select', { 'data-testid': 'sh-variant' },
    numbered.map(v => h('option', { value: v.key }, variantName(v.key))));
  const selected = () => variantInfo(variantSel.value);
  const bishopsSel = h('select', { 'data-testid': 'sh-bishops' },
    ['any', 'same', 'opposite'].map(b => h('option', { value: b }, t(`bishops.${b}`))));
  const exclude = h('input', { type: 'checkbox', 'data-testid': 'sh-exclude' });
  const count = h('input', { type: 'number', min: '1', max: '50', value: '1', 'data-testid': 'sh-count' });
  const seed = h('input', { type: 'text', 'data-testid': 'sh-seed' });
  const out = h('div.cards', { 'data-testid': 'sh-cards' });
  const err = h('p.error', { role: 'alert' });

  const pool = () => {
    const info = selected();
    return new SetupPool(info, info.setup.bishop_filter ? bishopsSel.value : 'any', exclude.checked);
  };
  const sync = () => (bishopsSel.disabled = !selected() || !selected().setup.bishop_filter);
  variantSel.addEventListener('change', sync);
  // The variant's setup evaluations (issue 17): a click on a number shows that setup's card.
  const balance = h('div.noprint', { 'data-testid': 'sh-balance-box' });
  const showBalance = () => {
    clear(balance);
    const info = selected();
    if (!info || !isNumbered(info)) return;
    balance.append(balancePanel(info.key, num => {
      err.textContent = '';
      clear(out).append(card(info, num, ''));
    }));
  };
  variantSel.addEventListener('change', showBalance);

  async function draw() {
    err.textContent = '';
    clear(out);
    try {
      const p = pool();
      const n = Math.max(1, Math.min(50, Number(count.value) || 1));
      const numbers = seed.value
        ? await drawSeeded(p, seed.value, n)
        : Array.from({ length: n }, () => drawRandom(p));
      numbers.forEach((num, i) => out.append(card(p.info, num, n > 1 ? `${i + 1}` : '')));
    } catch (e) {
      err.textContent = t(e.key || errorKey(e));
    }
  }

  // verifiable round
  const salt = h('input', { type: 'text', size: '66', 'data-testid': 'sh-salt', spellcheck: 'false' });
  const event = h('input', { type: 'text', 'data-testid': 'sh-event' });
  const round = h('input', { type: 'number', min: '1', value: '1', 'data-testid': 'sh-round' });
  const boards = h('input', { type: 'number', min: '1', max: '200', value: '1', 'data-testid': 'sh-boards' });
  const perBoard = h('input', { type: 'checkbox', 'data-testid': 'sh-per-board' });
  const commit = h('output.commitment', { 'data-testid': 'sh-commitment' });
  // A published commitment to check against the revealed salt and event (issue 37): the
  // page compares the 64 hex digits, not the player's eye.
  const published = h('input', { type: 'text', size: '66', 'data-testid': 'sh-published',
    spellcheck: 'false', autocomplete: 'off' });
  const check = h('output.check', { 'data-testid': 'sh-check' });
  // An event name with a control character is refused, as startpos.py and the CLI refuse it.
  // eslint-disable-next-line no-control-regex
  const controlChar = /[\u0000-\u001f\u007f-\u009f]/;
  const eventProblem = () => (controlChar.test(event.value)
    ? Object.assign(new Error('control character in the event name'), { key: 'err.eventControl' }) : null);

  function showCheck() {
    const want = published.value.trim().toLowerCase();
    const have = commit.textContent;
    delete check.dataset.match;
    check.textContent = '';
    if (!want || !have) return;
    const same = want === have;
    check.dataset.match = same ? 'yes' : 'no';
    check.textContent = same ? t('commitmentMatches') : t('commitmentDiffers');
    check.className = same ? 'check note' : 'check error';
  }

  async function updateCommitment() {
    commit.textContent = '';
    try {
      if (salt.value && event.value && !eventProblem()) {
        commit.textContent = await commitment(fromHex(salt.value), event.value);
      }
    } catch { /* shown when deriving */ }
    showCheck();
  }
  salt.addEventListener('input', updateCommitment);
  event.addEventListener('input', updateCommitment);
  published.addEventListener('input', showCheck);

  // An event's evaluation band (issue 30): the setups outside it, from this server's evaluation
  // set, checked against the event's digest when one is given (docs/shuffler.md §6).
  const band = h('input', { type: 'text', inputmode: 'decimal', size: '6', placeholder: '0.3', 'data-testid': 'sh-band' });
  const bandDigest = h('input', { type: 'text', size: '66', 'data-testid': 'sh-band-digest', spellcheck: 'false' });
  const bandShown = h('output', { 'data-testid': 'sh-band-out' });
  const failure = (key, message) => Object.assign(new Error(message), { key });
  async function outsideTheBand(info) {
    bandShown.textContent = '';
    const text = band.value.trim().replace(/^[±+]/, '');
    if (!text) return [];
    const pawns = Number(text);
    if (!Number.isFinite(pawns) || pawns < 0 || pawns > 100) throw failure('err.badBand', `bad band ${text}`);
    const set = await request('GET', `/api/setups/${encodeURIComponent(info.key)}/evaluation-set`);
    const digest = await evaluationDigest(set);
    if (digest !== set.digest) throw failure('err.evalDigest', 'the evaluation set does not match its digest');
    const want = bandDigest.value.trim().toLowerCase();
    if (want && !digest.startsWith(want)) throw failure('err.evalDigest', 'not the event\'s evaluation set');
    const left = outsideBand(set, info.setup.count, Math.round(pawns * 100));
    bandShown.textContent = t('bandOutside', { n: left.length, digest: digest.slice(0, 12) });
    return left;
  }

  async function derive() {
    err.textContent = '';
    clear(out);
    try {
      const info = selected();
      const left = await outsideTheBand(info);
      const p = left.length ? new SetupPool(info, info.setup.bishop_filter ? bishopsSel.value : 'any', exclude.checked, left) : pool();
      const r = Number(round.value);
      const b = Number(boards.value);
      if (!Number.isInteger(r) || r < 1) throw Object.assign(new Error('rounds are numbered from 1'), { key: 'err.badRound' });
      if (!Number.isInteger(b) || b < 1) throw Object.assign(new Error('a round has at least one board'), { key: 'err.badBoards' });
      const bad = eventProblem();
      if (bad) throw bad;
      const numbers = await roundSetups(fromHex(salt.value), event.value, r, b, p, perBoard.checked);
      const shown = perBoard.checked ? numbers : numbers.slice(0, 1);
      shown.forEach((num, i) => out.append(card(p.info, num,
        `${event.value} · ${t('round')} ${r}${perBoard.checked ? ` · ${t('board')} ${i + 1}` : ''}`)));
    } catch (e) {
      err.textContent = t(e.key || errorKey(e));
    }
  }

  // A round revealed in the hall (issue 30, docs/shuffler.md §6): the salt, event, round
  // and boards above, the digits drawn in the hall, and the event's own pool.
  const digits = h('input', { type: 'text', inputmode: 'numeric', size: '24', 'data-testid': 'sh-hall-digits' });
  const hallExcluded = h('input', { type: 'text', placeholder: 'standard, 7', 'data-testid': 'sh-hall-excluded' });
  const hallShortlist = h('input', { type: 'text', placeholder: '12, 300, 700', 'data-testid': 'sh-hall-shortlist' });
  const noRepeat = h('input', { type: 'checkbox', 'data-testid': 'sh-hall-norepeat' });
  const used = h('input', { type: 'text', placeholder: '275, 442', 'data-testid': 'sh-hall-used' });
  const hallKey = h('output.commitment', { 'data-testid': 'sh-hall-key' });

  async function deriveHall() {
    err.textContent = '';
    hallKey.textContent = '';
    clear(out);
    try {
      const info = selected();
      const also = [...setupList(info, hallExcluded.value), ...await outsideTheBand(info)];
      const only = hallShortlist.value.trim() ? setupList(info, hallShortlist.value) : null;
      const p = new SetupPool(info, info.setup.bishop_filter ? bishopsSel.value : 'any', exclude.checked, also, only);
      const bad = eventProblem();
      if (bad) throw bad;
      const r = Number(round.value);
      const got = await hallRoundSetups(fromHex(salt.value), event.value, r, digits.value,
        Number(boards.value), p, { perBoard: perBoard.checked, noRepeat: noRepeat.checked,
          used: noRepeat.checked ? setupList(info, used.value) : [] });
      hallKey.textContent = got.key;
      const shown = perBoard.checked ? got.numbers : got.numbers.slice(0, 1);
      shown.forEach((num, i) => out.append(card(info, num,
        `${event.value} · ${t('round')} ${r}${perBoard.checked ? ` · ${t('board')} ${i + 1}` : ''}`)));
    } catch (e) {
      err.textContent = t(e.key || errorKey(e));
    }
  }

  root.append(h('section.shuffler',
    h('h1', t('shufflerTitle')),
    h('p.hint', t('shufflerHelp')),
    h('div.form-row',
      h('label.field', t('variant'), ' ', variantSel),
      h('label.field', t('bishops'), ' ', bishopsSel),
      h('label.field', exclude, ' ', t('excludeStandard'))),
    h('div.form-row',
      h('label.field', t('count'), ' ', count),
      h('label.field', t('seed'), ' ', seed),
      h('button.primary', { type: 'button', 'data-testid': 'sh-draw', onclick: draw }, t('drawSetups'))),
    h('details.round', h('summary', t('roundTitle')),
      h('div.form-row',
        h('label.field', t('salt'), ' ', salt),
        h('button.secondary', { type: 'button', onclick: () => {
          salt.value = toHex(newSalt());
          updateCommitment();
        } }, t('newSaltBtn'))),
      h('div.form-row',
        h('label.field', t('event'), ' ', event),
        h('label.field', t('round'), ' ', round),
        h('label.field', t('boards'), ' ', boards),
        h('label.field', perBoard, ' ', t('perBoard'))),
      h('div.form-row',
        h('label.field', t('bandField'), ' ', band),
        h('label.field', t('bandDigestField'), ' ', bandDigest), ' ', bandShown),
      h('p', t('commitmentLabel'), ': ', commit),
      h('div.form-row',
        h('label.field', t('publishedCommitment'), ' ', published), ' ', check),
      h('button.primary', { type: 'button', 'data-testid': 'sh-derive', onclick: derive }, t('drawRound')),
      h('fieldset.hall', { 'data-testid': 'sh-hall' },
        h('legend', t('hallTitle')),
        h('p.hint', t('hallHelp')),
        h('div.form-row',
          h('label.field', t('hallDigits'), ' ', digits),
          h('label.field', t('hallExcluded'), ' ', hallExcluded),
          h('label.field', t('hallShortlist'), ' ', hallShortlist)),
        h('div.form-row',
          h('label.field', noRepeat, ' ', t('hallNoRepeat')),
          h('label.field', t('hallUsed'), ' ', used)),
        h('p', t('hallKey'), ': ', hallKey),
        h('button.primary', { type: 'button', 'data-testid': 'sh-hall-derive', onclick: deriveHall }, t('drawHall')))),
    verifyGameBox(numbered, out, err, query),
    err,
    h('button.secondary.noprint', { type: 'button', onclick: () => window.print() }, t('print')),
    out, balance));
  sync();
  showBalance();
}
