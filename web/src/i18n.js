// English and Spanish UI text and notation letters. The language is kept in localStorage
// and can be forced with ?lang=es.

const EN = {
  title: 'randomchess',
  play: 'Play',
  shuffler: 'Shuffler',
  language: 'Language',
  newGame: 'New game',
  variant: 'Variant',
  'variant.chess960': 'Chess960',
  'variant.mrc': 'Modern Random Chess (9x9)',
  'variant.modern': 'Modern chess (9x9, Maura)',
  'variant.chess': 'Classical chess',
  setup: 'Setup',
  'setup.random': 'Random',
  'setup.number': 'By number',
  'setup.fen': 'Paste a FEN',
  redraw: 'Draw again',
  setupNumber: 'Setup number',
  backRank: 'Back rank',
  sameBishops: 'Both bishops on one colour: the Bishop Adjustment is in play.',
  opponent: 'Opponent',
  'opponent.computer': 'Computer',
  'opponent.friend': 'A friend (send a link)',
  'opponent.hotseat': 'Both sides on this screen',
  level: 'Level',
  colour: 'Your colour',
  'colour.white': 'White',
  'colour.black': 'Black',
  'colour.random': 'Random',
  timeControl: 'Time control',
  minutes: 'minutes',
  increment: 'increment (s)',
  unlimited: 'no clock',
  start: 'Start the game',
  badNumber: 'Setup numbers run from 0 to {max}.',
  badFen: 'Enter a FEN.',
  inviteTitle: 'Invite a friend',
  inviteHelp: 'Send this link; whoever opens it first plays {colour}.',
  copy: 'Copy',
  copied: 'Copied',
  you: 'You play {colour}',
  spectator: 'You are watching this game',
  hotseat: 'Both sides on this screen',
  toMove: '{colour} to move',
  waiting: 'Waiting for the opponent…',
  thinking: 'The computer is thinking…',
  moves: 'Moves',
  typeMove: 'Type a move (SAN or UCI)',
  send: 'Play',
  castle: 'Castle',
  adjust: 'Bishop Adjustment',
  offerDraw: 'Offer a draw',
  acceptDraw: 'Accept the draw',
  claimDraw: 'Claim a draw',
  drawOffered: '{colour} offers a draw.',
  resign: 'Resign',
  confirmResign: 'Resign this game?',
  flip: 'Flip board',
  copyFen: 'Copy FEN',
  pgn: 'Download PGN',
  confirm: 'Confirm',
  cancel: 'Cancel',
  promoteTo: 'Promote to',
  'piece.q': 'Queen',
  'piece.m': 'Minister',
  'piece.r': 'Rook',
  'piece.b': 'Bishop',
  'piece.n': 'Knight',
  'piece.k': 'King',
  'piece.p': 'Pawn',
  castlePreview: '{san}: the king goes to {king}, the rook to {rook}.',
  castleWhy:
    'Castling in {variant} ends on the usual squares wherever king and rook started. Drop the king on its rook to castle.',
  adjustPreview: '{san}: the bishop on {from} and the {partner} on {to} swap squares.',
  adjustWhy:
    'Bishop Adjustment: when both bishops start on one colour, once per game, instead of a move, a player may swap an unmoved bishop with an unmoved neighbour on the same rank (knight, queen, minister, rook or king). It counts as your move; swapping with a rook or the king gives up that castling.',
  illegal: 'Illegal move: {reason}',
  error: 'Error: {reason}',
  disconnected: 'Connection lost; reconnecting…',
  notFound: 'No such game.',
  'result.white': 'White wins',
  'result.black': 'Black wins',
  'result.draw': 'Draw',
  'term.checkmate': 'checkmate',
  'term.stalemate': 'stalemate',
  'term.resignation': 'resignation',
  'term.time_forfeit': 'time forfeit',
  'term.dead_position': 'dead position',
  'term.threefold_repetition': 'threefold repetition claimed',
  'term.fivefold_repetition': 'fivefold repetition',
  'term.fifty_move_rule': 'fifty-move rule claimed',
  'term.seventy_five_move_rule': 'seventy-five-move rule',
  'term.agreement': 'agreed',
  'term.abandoned': 'abandoned',
  shufflerTitle: 'Shuffler for arbiters',
  shufflerHelp:
    'Draws setups exactly as `randomchess draw` does (docs/shuffler.md); verifiable rounds can be checked by anyone after the event.',
  bishops: 'Bishops (MRC)',
  'bishops.any': 'any',
  'bishops.same': 'same colour',
  'bishops.opposite': 'opposite colours',
  excludeStandard: 'Leave out the standard array',
  count: 'How many',
  seed: 'Seed (optional, for reproducible draws)',
  drawSetups: 'Draw',
  roundTitle: 'Verifiable round',
  salt: 'Salt (64 hex digits)',
  newSaltBtn: 'New salt',
  event: 'Event name',
  round: 'Round',
  boards: 'Boards',
  perBoard: 'A setup per board',
  commitmentLabel: 'Commitment (publish before the event)',
  drawRound: 'Derive the round',
  print: 'Print the cards',
  board: 'Board',
  castlingSquares: 'Castling',
};

const ES = {
  title: 'randomchess',
  play: 'Jugar',
  shuffler: 'Sorteo',
  language: 'Idioma',
  newGame: 'Nueva partida',
  variant: 'Variante',
  'variant.chess960': 'Ajedrez 960',
  'variant.mrc': 'Ajedrez Moderno Aleatorio (9x9)',
  'variant.modern': 'Ajedrez Moderno (9x9, Maura)',
  'variant.chess': 'Ajedrez clásico',
  setup: 'Posición inicial',
  'setup.random': 'Al azar',
  'setup.number': 'Por número',
  'setup.fen': 'Pegar un FEN',
  redraw: 'Sortear otra',
  setupNumber: 'Número de posición',
  backRank: 'Primera fila',
  sameBishops: 'Los dos alfiles en el mismo color: rige el Ajuste de Alfil.',
  opponent: 'Rival',
  'opponent.computer': 'Ordenador',
  'opponent.friend': 'Un amigo (enviar un enlace)',
  'opponent.hotseat': 'Los dos bandos en esta pantalla',
  level: 'Nivel',
  colour: 'Tu color',
  'colour.white': 'Blancas',
  'colour.black': 'Negras',
  'colour.random': 'Al azar',
  timeControl: 'Ritmo de juego',
  minutes: 'minutos',
  increment: 'incremento (s)',
  unlimited: 'sin reloj',
  start: 'Empezar la partida',
  badNumber: 'Los números van de 0 a {max}.',
  badFen: 'Escribe un FEN.',
  inviteTitle: 'Invitar a un amigo',
  inviteHelp: 'Envía este enlace; quien lo abra primero juega con {colour}.',
  copy: 'Copiar',
  copied: 'Copiado',
  you: 'Juegas con {colour}',
  spectator: 'Estás mirando esta partida',
  hotseat: 'Los dos bandos en esta pantalla',
  toMove: 'Juegan {colour}',
  waiting: 'Esperando al rival…',
  thinking: 'El ordenador está pensando…',
  moves: 'Jugadas',
  typeMove: 'Escribe una jugada (SAN o UCI)',
  send: 'Jugar',
  castle: 'Enroque',
  adjust: 'Ajuste de Alfil',
  offerDraw: 'Ofrecer tablas',
  acceptDraw: 'Aceptar tablas',
  claimDraw: 'Reclamar tablas',
  drawOffered: '{colour} ofrecen tablas.',
  resign: 'Abandonar',
  confirmResign: '¿Abandonar esta partida?',
  flip: 'Girar el tablero',
  copyFen: 'Copiar FEN',
  pgn: 'Descargar PGN',
  confirm: 'Confirmar',
  cancel: 'Cancelar',
  promoteTo: 'Coronar en',
  'piece.q': 'Dama',
  'piece.m': 'Ministro',
  'piece.r': 'Torre',
  'piece.b': 'Alfil',
  'piece.n': 'Caballo',
  'piece.k': 'Rey',
  'piece.p': 'Peón',
  castlePreview: '{san}: el rey va a {king} y la torre a {rook}.',
  castleWhy:
    'En {variant} el enroque termina en las casillas de siempre, estén donde estén el rey y la torre. Suelta el rey sobre su torre para enrocar.',
  adjustPreview: '{san}: el alfil de {from} y la pieza ({partner}) de {to} se intercambian.',
  adjustWhy:
    'Ajuste de Alfil: si los dos alfiles empiezan en el mismo color, una vez por partida y en lugar de una jugada, se puede intercambiar un alfil sin mover con una pieza vecina sin mover de la misma fila (caballo, dama, ministro, torre o rey). Cuenta como jugada; con una torre o el rey se pierde ese enroque.',
  illegal: 'Jugada ilegal: {reason}',
  error: 'Error: {reason}',
  disconnected: 'Conexión perdida; reconectando…',
  notFound: 'No existe esa partida.',
  'result.white': 'Ganan las blancas',
  'result.black': 'Ganan las negras',
  'result.draw': 'Tablas',
  'term.checkmate': 'jaque mate',
  'term.stalemate': 'ahogado',
  'term.resignation': 'abandono',
  'term.time_forfeit': 'tiempo agotado',
  'term.dead_position': 'posición muerta',
  'term.threefold_repetition': 'triple repetición reclamada',
  'term.fivefold_repetition': 'quíntuple repetición',
  'term.fifty_move_rule': 'regla de las cincuenta jugadas reclamada',
  'term.seventy_five_move_rule': 'regla de las setenta y cinco jugadas',
  'term.agreement': 'de mutuo acuerdo',
  'term.abandoned': 'partida abandonada',
  shufflerTitle: 'Sorteo para árbitros',
  shufflerHelp:
    'Sortea posiciones igual que `randomchess draw` (docs/shuffler.md); cualquiera puede comprobar las rondas verificables después del torneo.',
  bishops: 'Alfiles (MRC)',
  'bishops.any': 'cualquiera',
  'bishops.same': 'mismo color',
  'bishops.opposite': 'colores opuestos',
  excludeStandard: 'Excluir la posición estándar',
  count: 'Cuántas',
  seed: 'Semilla (opcional, para sorteos reproducibles)',
  drawSetups: 'Sortear',
  roundTitle: 'Ronda verificable',
  salt: 'Sal (64 cifras hexadecimales)',
  newSaltBtn: 'Nueva sal',
  event: 'Nombre del torneo',
  round: 'Ronda',
  boards: 'Tableros',
  perBoard: 'Una posición por tablero',
  commitmentLabel: 'Compromiso (publicar antes del torneo)',
  drawRound: 'Calcular la ronda',
  print: 'Imprimir las fichas',
  board: 'Tablero',
  castlingSquares: 'Enroque',
};

const TABLES = { en: EN, es: ES };
export const LANGUAGES = ['en', 'es'];

let current = (() => {
  const q = new URLSearchParams(location.search).get('lang');
  if (q && TABLES[q]) return q;
  const saved = localStorage.getItem('rc-lang');
  if (saved && TABLES[saved]) return saved;
  return (navigator.language || 'en').startsWith('es') ? 'es' : 'en';
})();

export const lang = () => current;

export function setLang(l) {
  if (!TABLES[l]) return;
  current = l;
  localStorage.setItem('rc-lang', l);
  document.documentElement.lang = l;
}

/** The text for `key` in the current language, with {name} placeholders filled. */
export function t(key, vars = {}) {
  const text = TABLES[current][key] ?? EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

// Piece letters (RULES.md, pieces.py): R is the rook in English and the king (rey) in Spanish.
const TO_ES = { K: 'R', Q: 'D', R: 'T', B: 'A', N: 'C', M: 'M', P: 'P' };
const FROM_ES = { R: 'K', D: 'Q', T: 'R', A: 'B', L: 'B', C: 'N', M: 'M', P: 'P' };

/** English SAN or back rank written with the current language's piece letters. */
export function localizeLetters(text, l = current) {
  if (l !== 'es') return text;
  return text.replace(/[KQRBNMP]/g, c => TO_ES[c]);
}

/** A move typed with the current language's letters, as English SAN (UCI passes through). */
export function delocalizeSan(text, l = current) {
  if (l !== 'es' || /^[a-p]\d+[a-p]\d+[a-z]?$/.test(text.trim())) return text;
  return text.replace(/[RDTALCMP]/g, c => FROM_ES[c]);
}
