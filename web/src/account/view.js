// The account page (#/account, issue 18, docs/accounts.md): log in, sign up, and for an
// account its "your turn" list, ratings, games with their filters, events, log out, password
// change and deletion. The view only: every decision is the controller's (ctrl.js).

import { h, clear, modal } from '../dom.js';
import { t } from '../i18n.js';
import { allVariants, variantName } from '../variants.js';
import { myEvents } from '../tournament/list.js';
import {
  RESULTS, SIGN_UP_RULES, SPEEDS, createAccountCtrl, gameText, ratingText, tr, turnText,
} from './ctrl.js';

export function errorLine() {
  return h('p.error', { role: 'alert', 'data-testid': 'account-error' });
}

export function renderAccount(main, go) {
  const root = h('section.account', { 'data-testid': 'account' });
  main.append(root);
  draw(root, go, createAccountCtrl());
}

async function draw(root, go, ctrl) {
  clear(root);
  const page = await ctrl.load();
  const line = errorLine();
  // An action's answer: drawn again when it logged in or out, else its message or error.
  const answer = out => {
    if (out.error) line.textContent = out.error;
    else if (out.changed) draw(root, go, ctrl);
    else if (out.message) line.textContent = out.message;
    return out;
  };
  if (!page.user) {
    root.append(...loginForms(ctrl, answer), line);
    return;
  }
  const { user, games, turn } = page;
  const gamesList = h('div', { 'data-testid': 'games-list' });
  paintGames(gamesList, games);
  const oldPw = h('input', { type: 'password', autocomplete: 'current-password',
    'data-testid': 'old-password' });
  const newPw = h('input', { type: 'password', autocomplete: 'new-password',
    'data-testid': 'new-password' });
  const changePassword = async ev => {
    ev.preventDefault();
    if (answer(await ctrl.changePassword(oldPw.value, newPw.value)).ok) oldPw.value = newPw.value = '';
  };
  // Deleting asks first, in a dialog with its own password field (issue 32): not the
  // change-password form's box beside it, and never in one click.
  const deleteAccount = async () => {
    const password = h('input', { type: 'password', autocomplete: 'current-password',
      'data-testid': 'delete-password' });
    const asked = modal(tr('deleteTitle'), h('div', h('p', tr('deleteHelp')),
      h('label.stack', tr('deletePassword'), password)), [
      { label: t('cancel'), value: false, testid: 'confirm-no' },
      { label: tr('deleteConfirm'), value: true, testid: 'delete-confirm' },
    ]);
    password.focus();
    if (!await asked) return;
    answer(await ctrl.deleteAccount(password.value));
  };
  const out = everywhere => async () => answer(await ctrl.logOut(everywhere));
  root.append(
    h('h1', { 'data-testid': 'logged-in' }, tr('loggedInAs', { name: user.name })),
    h('p', h('a', { href: '/#/lobby', 'data-testid': 'to-lobby' }, tr('lobby')), ' · ',
      h('a', { href: `/#/players/${encodeURIComponent(user.name)}`, 'data-testid': 'to-profile' },
        tr('profile'))),
    h('h2', tr('yourTurn')),
    turn.length
      ? h('ul', { 'data-testid': 'your-turn' }, turn.map(g => {
        const text = turnText(g);
        return h('li', h('a', { href: `#/game/${encodeURIComponent(g.id)}` }, text.name),
          text.deadline ? h('span.hint', { 'data-testid': 'turn-deadline' }, text.deadline) : '');
      }))
      : h('p', tr('noTurn')),
    h('h2', tr('ratings')),
    user.ratings.length
      ? h('ul', user.ratings.map(r => h('li', ratingText(r))))
      : h('p', tr('noRatings')),
    h('h2', tr('games')),
    gamesFilter(ctrl, line),
    gamesList,
    myEvents(),
    h('button', { onclick: out(false), 'data-testid': 'logout' }, tr('logOut')),
    h('button', { onclick: out(true) }, tr('logOutEverywhere')),
    h('form.row-form', { onsubmit: changePassword }, h('h2', tr('changePassword')),
      h('label.stack', tr('oldPassword'), oldPw), h('label.stack', tr('newPassword'), newPw),
      h('button', { type: 'submit', 'data-testid': 'change-password' }, tr('changePassword')),
      h('button', { type: 'button', onclick: deleteAccount, 'data-testid': 'delete-account' },
        tr('deleteAccount'))),
    line);
}

/** Log in, and sign up with its rules stated before anything is sent (SIGN_UP_RULES) and
 *  the password typed twice: two forms. */
function loginForms(ctrl, answer) {
  const field = (label, input) => h('label.stack', label, input);
  const name = h('input', { name: 'name', autocomplete: 'username', 'data-testid': 'name' });
  const password = h('input', { name: 'password', type: 'password', 'data-testid': 'password',
    autocomplete: 'current-password' });
  const newName = h('input', { name: 'new-name', autocomplete: 'username', 'data-testid': 'signup-name',
    maxlength: String(SIGN_UP_RULES.nameHigh) });
  const newPassword = h('input', { name: 'new-password', type: 'password', autocomplete: 'new-password',
    'data-testid': 'signup-password' });
  const again = h('input', { name: 'password-again', type: 'password', autocomplete: 'new-password',
    'data-testid': 'password-again' });
  const logIn = async ev => {
    ev.preventDefault();
    answer(await ctrl.logIn(name.value, password.value));
  };
  const signUp = async ev => {
    ev.preventDefault();
    answer(await ctrl.signUp(newName.value, newPassword.value, again.value));
  };
  const r = SIGN_UP_RULES;
  return [h('h1', tr('account')),
    h('div.account-forms',
      h('form.stacked', { onsubmit: logIn, 'data-testid': 'login-form' },
        h('h2', tr('haveAccount')),
        field(tr('name'), name), field(tr('password'), password),
        h('button', { type: 'submit', 'data-testid': 'login' }, tr('logIn'))),
      h('form.stacked', { onsubmit: signUp, 'data-testid': 'signup-form' },
        h('h2', tr('newAccount')),
        h('p.hint', { 'data-testid': 'signup-rules' },
          tr('signUpRules', { low: r.nameLow, high: r.nameHigh, min: r.password })),
        field(tr('name'), newName), field(tr('password'), newPassword),
        field(tr('passwordAgain'), again),
        h('button', { type: 'submit', 'data-testid': 'signup' }, tr('signUp'))))];
}

function paintGames(list, games) {
  clear(list);
  list.append(games.length
    ? h('ul', games.map(g => h('li', { 'data-testid': 'game-row' },
      h('a', { href: `#/game/${encodeURIComponent(g.id)}` }, gameText(g)))))
    : h('p', { 'data-testid': 'no-games' }, tr('noGames')));
}

// The account's games with the filters of GET /api/account/games (variant, speed, result from
// the account's side, opponent, setup number).
function gamesFilter(ctrl, line) {
  const any = h('option', { value: '' }, tr('any'));
  const variant = h('select', { name: 'variant', 'data-testid': 'filter-variant' }, any,
    allVariants().map(v => h('option', { value: v.key }, variantName(v.key))));  // GET /api/variants
  const speed = h('select', { name: 'speed', 'data-testid': 'filter-speed' },
    h('option', { value: '' }, tr('any')), SPEEDS.map(v => h('option', { value: v }, tr(`speed.${v}`))));
  const result = h('select', { name: 'result', 'data-testid': 'filter-result' },
    h('option', { value: '' }, tr('any')), RESULTS.map(v => h('option', { value: v }, tr(`result.${v}`))));
  const opponent = h('input', { name: 'opponent', 'data-testid': 'filter-opponent', size: 10 });
  const number = h('input', { name: 'number', type: 'number', min: '0', 'data-testid': 'filter-number' });
  const form = h('form.filters.row-form', {
    'data-testid': 'games-filter',
    onsubmit: async ev => {
      ev.preventDefault();
      const out = await ctrl.filterGames({ variant: variant.value, speed: speed.value,
        result: result.value, opponent: opponent.value, number: number.value });
      if (out.error) line.textContent = out.error;
      else paintGames(form.parentNode.querySelector('[data-testid=games-list]'), out.games);
    },
  }, h('label.stack', tr('variantLabel'), variant), h('label.stack', tr('speedLabel'), speed),
  h('label.stack', tr('resultLabel'), result), h('label.stack', tr('opponentLabel'), opponent),
  h('label.stack', tr('numberLabel'), number),
  h('button.secondary', { type: 'submit', 'data-testid': 'filter-go' }, tr('filter')));
  return form;
}
