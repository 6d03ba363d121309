"""The Spanish ``--help`` of the arbiter's commands (issue 29: "a Spanish CLI session shows no
English text").

Keyed by the English text exactly as the command's docstring or the option's ``help=`` says
it, whitespace folded; :func:`spanish_help` looks a text up.  tests/test_cli_spanish.py walks
every command of ``randomchess tournament`` and fails on a help text missing here, so a new
option cannot land with an English-only help.
"""

from __future__ import annotations

import re

SPANISH_HELP: dict[str, str] = {
    # tournament (group)
    "Swiss and round-robin events with one verifiable start position per round.":
        "Torneos suizos y liguillas con una posición inicial verificable por ronda.",
    "SQLAlchemy URL of the database (default: the server's SQLite file).":
        "URL SQLAlchemy de la base de datos (por omisión: el fichero SQLite del servidor).",
    "Language of tables and messages.": "Idioma de las tablas y los mensajes.",
    # new
    "Create an event and commit to its secret salt (the commitment is printed).":
        "Crea un torneo y se compromete con su sal secreta (se imprime el compromiso).",
    "Swiss (FIDE Dutch), round robin or double round robin.":
        "Suizo (holandés FIDE), liguilla o liguilla a doble vuelta.",
    "The event's format (instead of --system); knockout: matches in a bracket "
    "(docs/tournaments.md).":
        "Formato del torneo (en lugar de --system); knockout: encuentros eliminatorios en un "
        "cuadro (docs/tournaments.md).",
    "Knock-out: the games of each match.": "Eliminatoria: las partidas de cada encuentro.",
    "Knock-out: a tie-break stage, in order (2:600+5); repeat for more.":
        "Eliminatoria: una fase de desempate, en orden (2:600+5); repítase para más.",
    "Knock-out: the last tie-break, fixed:WHITE,BLACK (fixed:300,240) or bid:BASE (bid:300+2, "
    "the players bid for Black).":
        "Eliminatoria: el último desempate, fixed:BLANCAS,NEGRAS (fixed:300,240) o bid:BASE "
        "(bid:300+2, los jugadores pujan por las negras).",
    "Knock-out: one setup per match stage, or per pair of games.":
        "Eliminatoria: una posición inicial por fase del encuentro, o por cada par de partidas.",
    "Knock-out: seeds by rating or in the order of entry.":
        "Eliminatoria: cabezas de serie por Elo o por orden de inscripción.",
    "Swiss: the number of rounds.": "Suizo: el número de rondas.",
    "For example 5400+30 (PGN TimeControl).": "Por ejemplo 5400+30 (TimeControl de PGN).",
    "Comma-separated, in order, from: BH, BH-C1, BH-M1, SB, PS, DE, WIN, WON.":
        "Separados por comas, en orden, de entre: BH, BH-C1, BH-M1, SB, PS, DE, WIN, WON.",
    "One setup per round for all boards, or per board.":
        "Una posición inicial por ronda para todas las mesas, o una por mesa.",
    "Two-game matches: even rounds replay the odd round with colours reversed on the same "
    "setups.":
        "Minimatches de dos partidas: las rondas pares repiten la impar con los colores "
        "invertidos sobre las mismas posiciones.",
    "Never draw SP 518 (or Maura's 8226).": "No sortear nunca la SP 518 (ni la 8226 de Maura).",
    "MRC: only setups with bishops on one colour, or on opposite colours.":
        "MRC: solo posiciones con los alfiles en un mismo color, o en colores opuestos.",
    "No setup twice in the event.": "Ninguna posición inicial dos veces en el torneo.",
    "Only setups whose evaluation lies within ±PAWNS (0.3, 30cp), by the shipped setup "
    "evaluations (randomchess setups show).":
        "Solo posiciones cuya evaluación está dentro de ±PEONES (0.3, 30cp), según las "
        "evaluaciones incluidas (randomchess setups show).",
    "The colour of the top seed on board 1 in round 1.":
        "El color del primer cabeza de serie en la mesa 1 de la ronda 1.",
    "FIDE's tie-break regulations: the text in force from 1 March 2026, or the 2023/2024 text "
    "(unplayed rounds' dummy opponents uncapped).":
        "Reglamento de desempates de la FIDE: el texto en vigor desde el 1 de marzo de 2026, o "
        "el de 2023/2024 (rivales virtuales de rondas no jugadas sin tope).",
    "salt: every setup fixed by the committed salt alone; hall: each round's setup revealed in "
    "the hall from the salt and digits drawn there (`tournament reveal`).":
        "salt: cada posición queda fijada solo por la sal comprometida; hall: la posición de "
        "cada ronda se revela en la sala a partir de la sal y de cifras sorteadas allí "
        "(`tournament reveal`).",
    "Never draw these setups: numbers (518,534) and/or the word 'standard' (the standard array "
    "and its mirror: 518 and 534, MRC 8226 and 8406).":
        "No sortear nunca estas posiciones: números (518,534) y/o la palabra 'standard' (la "
        "posición clásica y su espejo: 518 y 534, MRC 8226 y 8406).",
    "Draw only from this published shortlist of setup numbers.":
        "Sortear solo de esta lista publicada de números de posición.",
    "Preparation window after a reveal, in minutes: online games open when it ends.":
        "Tiempo de preparación tras una revelación, en minutos: las partidas en línea se abren "
        "al terminar.",
    "Also print an organiser secret, to run the event from the web page of a server on this "
    "database.":
        "Imprime además un secreto de organizador, para dirigir el torneo desde la página web "
        "de un servidor con esta base de datos.",
    # list, add-player, withdraw, bye, start, pair
    "The events in the database.": "Los torneos de la base de datos.",
    "Register a player (after the start: a late entry from the next round).":
        "Inscribe a un jugador (tras el comienzo: inscripción tardía desde la ronda siguiente).",
    "Three letters: ESP, FRA, ...": "Tres letras: ESP, FRA, ...",
    "Withdraw a player from the next round on.": "Retira a un jugador desde la ronda siguiente.",
    "A bye a player asks for in a future round.":
        "Un descanso que un jugador pide para una ronda futura.",
    "H half point, Z zero, F full point.": "H medio punto, Z cero, F punto entero.",
    "Close registration and give the pairing numbers.":
        "Cierra la inscripción y asigna los números de emparejamiento.",
    "Pair the next round and draw its setup(s) from the committed salt.":
        "Empareja la ronda siguiente y sortea su(s) posición(es) con la sal comprometida.",
    # reveal
    "A terminal table, or a printable sheet with cards.":
        "Una tabla en el terminal, o una hoja imprimible con fichas.",
    "Reveal a paired round's setup from the salt and the digits drawn in the hall (once: a "
    "reveal cannot be undone or repeated).":
        "Revela la posición de una ronda emparejada a partir de la sal y de las cifras "
        "sorteadas en la sala (una sola vez: una revelación no se deshace ni se repite).",
    "The digits drawn in the hall (dice 1-6 or urn digits 0-9), at least 6; spaces are ignored.":
        "Las cifras sorteadas en la sala (dados 1-6 o cifras de urna 0-9), al menos 6; los "
        "espacios se ignoran.",
    "The server on this database opens the round's games (not rated) when the preparation "
    "window ends; each player's personal link is printed once (on standard error with "
    "--format html).":
        "El servidor de esta base de datos abre las partidas de la ronda (no puntuables) al "
        "terminar la ventana de preparación; el enlace personal de cada jugador se imprime una "
        "sola vez (en la salida de errores con --format html).",
    "The server's address, put before the links (e.g. https://chess.example).":
        "La dirección del servidor, delante de los enlaces (p. ej. https://chess.example).",
    # show
    "The pairings (and results) of a round.": "Los emparejamientos (y resultados) de una ronda.",
    "Default: the last paired.": "Por omisión: la última emparejada.",
    "Also print the arbiter's log (before round 1: the log alone).":
        "Imprime además el registro del árbitro (antes de la ronda 1: solo el registro).",
    "Write to this file instead of the terminal.":
        "Escribe en este fichero en lugar del terminal.",
    # result, correct
    "Enter a result: 1-0, 0-1, 1/2; forfeits +- -+ --.":
        "Anota un resultado: 1-0, 0-1, 1/2; incomparecencias +- -+ --.",
    "A round's results, one 'BOARD RESULT' line each ('-': standard input; blank lines and # "
    "comments skipped), entered all or none.":
        "Los resultados de una ronda, una línea 'MESA RESULTADO' cada uno ('-': entrada "
        "estándar; se saltan líneas en blanco y comentarios #), se anotan todos o ninguno.",
    "Correct an entered result, with a reason kept in the log.":
        "Corrige un resultado anotado, con un motivo que queda en el registro.",
    "Why the entered result changes (logged).":
        "Por qué cambia el resultado anotado (queda registrado).",
    # standings, close, export, verify
    "Standings with the event's tiebreaks.": "Clasificación con los desempates del torneo.",
    "After this round.": "Tras esta ronda.",
    "Show the arithmetic of every tiebreak for this player number (or 'all').":
        "Muestra las cuentas de cada desempate para este número de jugador (o 'all').",
    "Close the event (all rounds complete) and reveal the salt.":
        "Cierra el torneo (todas las rondas completas) y revela la sal.",
    "Close after the last complete round although rounds remain (e.g. no legal pairing "
    "exists), with the arbiter's reason; it is logged.":
        "Cierra tras la última ronda completa aunque queden rondas (p. ej. no existe "
        "emparejamiento legal), con el motivo del árbitro; queda registrado.",
    "FIDE TRF-16, crosstable CSV or HTML, the PGN of the games, or the HTML bulletin "
    "(crosstable, setups and every game to step through; works offline).":
        "TRF-16 de la FIDE, cuadro cruzado en CSV o HTML, el PGN de las partidas, o el boletín "
        "HTML (cuadro, posiciones y cada partida para recorrer; funciona sin conexión).",
    "Re-derive every round's setup from the revealed salt and compare.":
        "Vuelve a obtener la posición de cada ronda a partir de la sal revelada y compara.",
    "Verify an exported TRF (with its revealed salt) instead.":
        "Verifica en su lugar un TRF exportado (con su sal revelada).",
    "The revealed salt, if the TRF does not carry it.": "La sal revelada, si el TRF no la lleva.",
    # game, import-pgn, relay
    "Enter a board's game from its scoresheet, checked move by move.":
        "Anota la partida de una mesa desde su planilla, comprobada jugada a jugada.",
    "The scoresheet: SAN in English or Spanish, move numbers and clock times optional ('-', the "
    "default: standard input).":
        "La planilla: SAN en inglés o en español, números de jugada y tiempos de reloj "
        "opcionales ('-', por omisión: entrada estándar).",
    "The scoresheet's language (default: from its piece letters).":
        "El idioma de la planilla (por omisión: según las letras de sus piezas).",
    "The arbiter's result (1-0, 0-1, 1/2, *).": "El resultado del árbitro (1-0, 0-1, 1/2, *).",
    "Replace the game stored for this board.": "Sustituye la partida guardada para esta mesa.",
    "Enter a round's games from a PGN file, each matched to its board by the players' names "
    "(or its Board tag); prints what matched nothing.":
        "Anota las partidas de una ronda desde un fichero PGN, cada una asignada a su mesa por "
        "los nombres de los jugadores (o su etiqueta Board); imprime lo que no casó con nada.",
    "The games' SAN language (default: from each game's piece letters).":
        "El idioma SAN de las partidas (por omisión: según las letras de piezas de cada una).",
    "Replace games stored already for the matched boards.":
        "Sustituye las partidas ya guardadas de las mesas asignadas.",
    "Relay a round's games from a PGN file an e-board program keeps rewriting; a game the rules "
    "refuse, or that is not the game relayed before, is flagged, never shown.":
        "Retransmite las partidas de una ronda desde un fichero PGN que un programa de "
        "tableros electrónicos reescribe; una partida que las reglas rechazan, o que no es la "
        "retransmitida antes, se señala y nunca se muestra.",
    "Seconds between looks at the file.": "Segundos entre lecturas del fichero.",
    "Relay the file as it is now and stop.": "Retransmite el fichero tal como está y termina.",
    # knock-out
    "A knock-out event's bracket: matches, scores, games, setups and clocks.":
        "El cuadro de una eliminatoria: encuentros, marcadores, partidas, posiciones y relojes.",
    "Only this round.": "Solo esta ronda.",
    "Knock-out: the result of a match's next game (1-0, 0-1, 1/2; forfeits +- -+ --).":
        "Eliminatoria: el resultado de la siguiente partida de un encuentro (1-0, 0-1, 1/2; "
        "incomparecencias +- -+ --).",
    "Knock-out: a player's Armageddon bid, the time (240 or 4:00) accepted to take Black.":
        "Eliminatoria: la puja de Armagedón de un jugador, el tiempo (240 o 4:00) que acepta "
        "para llevar las negras.",
    # knockout-from (group stage -> knock-out)
    "Group stage -> knock-out: a knock-out event seeded by the top places of closed Swiss or "
    "round-robin events, by their standings and tiebreaks (docs/tournaments.md).":
        "Fase de grupos -> eliminatoria: una eliminatoria cuyos cabezas de serie son los "
        "primeros puestos de suizos o liguillas cerrados, según su clasificación y desempates "
        "(docs/tournaments.md).",
    "A closed Swiss or round-robin event whose top places qualify; repeat for more groups "
    "(seeds by place, then by group in this order).":
        "Un suizo o liguilla cerrado cuyos primeros puestos se clasifican; repítase para más "
        "grupos (cabezas de serie por puesto y después por grupo, en este orden).",
    "The places of each group that qualify.": "Los puestos de cada grupo que se clasifican.",
    "The games of each match.": "Las partidas de cada encuentro.",
    "A tie-break stage, in order (2:600+5); repeat for more.":
        "Una fase de desempate, en orden (2:600+5); repítase para más.",
    "fixed:WHITE,BLACK (fixed:300,240) or bid:BASE (bid:300+2).":
        "fixed:BLANCAS,NEGRAS (fixed:300,240) o bid:BASE (bid:300+2).",
    "One setup per match stage, or per pair of games.":
        "Una posición inicial por fase del encuentro, o por cada par de partidas.",
    "Default: the first group's variant.": "Por omisión: la variante del primer grupo.",
    "The match games' clock (PGN TimeControl).":
        "El reloj de las partidas del encuentro (TimeControl de PGN).",
    "The better seed's colour in game 1.":
        "El color del mejor cabeza de serie en la partida 1.",
    "Also print an organiser secret.": "Imprime además un secreto de organizador.",
    # draw (the shuffler)
    "Draw Chess960 or MRC start positions, uniformly at random.":
        "Sortea posiciones iniciales de Chess960 o MRC, con igual probabilidad.",
    "\b randomchess draw --variant mrc --count 3 randomchess draw --number 518 --lang es -> "
    "518 TCADRACT randomchess draw --number 518 --brief (what to know before move 1) "
    "randomchess draw identify FEN_OR_BACK_RANK randomchess draw commit|round|verify ... "
    "(verifiable draws for events) randomchess draw verify-game ... (an online game's setup, "
    "from its seeds)":
        "\b\nrandomchess draw --variant mrc --count 3\n"
        "randomchess draw --number 518 --lang es        -> 518 TCADRACT\n"
        "randomchess draw --number 518 --brief          (lo que conviene saber antes de "
        "la 1.ª jugada)\n"
        "randomchess draw identify FEN_O_FILA\n"
        "randomchess draw commit|round|verify ...       (sorteos verificables para torneos)\n"
        "randomchess draw verify-game ...               (la posición de una partida en línea, "
        "a partir de sus semillas)",
    "Chess960 (Scharnagl numbers 0-959), MRC (MRC-Id 0-15119), CRC (CRC-Id 0-1679) or "
    "double960 (a Scharnagl number per side, e.g. 518/123).":
        "Chess960 (números de Scharnagl 0-959), MRC (MRC-Id 0-15119), CRC (CRC-Id 0-1679) o "
        "double960 (un número de Scharnagl por bando, p. ej. 518/123).",
    "MRC and CRC only: draw only setups whose bishops share a colour (MRC 6,720, CRC 720) or "
    "not (MRC 8,400, CRC 960).":
        "Solo MRC y CRC: sortear solo posiciones cuyos alfiles comparten color (MRC 6720, "
        "CRC 720) o no (MRC 8400, CRC 960).",
    "Leave out the orthodox array (Chess960 518) or Maura's (MRC 8226).":
        "Excluye la posición ortodoxa (Chess960 518) o la de Maura (MRC 8226).",
    "Show setup N instead of drawing (Chess960 0-959, MRC 0-15119).":
        "Muestra la posición N en lugar de sortear (Chess960 0-959, MRC 0-15119).",
    "Reproducible draw: the same seed always gives the same setups (HMAC-SHA256 generator, "
    "docs/shuffler.md). Default: the secrets module.":
        "Sorteo reproducible: la misma semilla da siempre las mismas posiciones (generador "
        "HMAC-SHA256, docs/shuffler.md). Por omisión: el módulo secrets.",
    "How many independent draws.": "Cuántos sorteos independientes.",
    "Piece letters: English (K Q R B N M) or Spanish (R D T A C M).":
        "Letras de las piezas: inglesas (K Q R B N M) o españolas (R D T A C M).",
    "text: number and back rank; json: one object per line; fen: one FEN per line; svg: a "
    "diagram; html: a printable sheet.":
        "text: número y primera fila; json: un objeto por línea; fen: un FEN por línea; svg: "
        "un diagrama; html: una hoja imprimible.",
    "text: number and back rank; json: one object per line; fen: one FEN per line; html: a "
    "printable sheet.":
        "text: número y primera fila; json: un objeto por línea; fen: un FEN por línea; html: "
        "una hoja imprimible.",
    "Add the setup brief (weak pawns, diagonals at the castled king's pawns, the king's lines, "
    "moves to castle; docs/shuffler.md) in --lang, to text, json and html.":
        "Añade la ficha de la posición (peones débiles, diagonales hacia los peones del rey "
        "enrocado, las líneas del rey, jugadas para enrocar; docs/shuffler.md) en el idioma de "
        "--lang, a text, json y html.",
    "Number of a start FEN or a back rank (e.g. RNBQKBNR, or TCADRACT with --lang es).":
        "Número de un FEN inicial o de una primera fila (p. ej. RNBQKBNR, o TCADRACT con "
        "--lang es).",
    "The number of a start FEN or back rank.":
        "El número de un FEN inicial o de una primera fila.",
    "Default: from the board size (8x8 Chess960, 9x9 MRC).":
        "Por omisión: según el tamaño del tablero (8x8 Chess960, 9x9 MRC).",
    "Before the event: make a secret salt and print the commitment to publish.":
        "Antes del torneo: crea una sal secreta e imprime el compromiso que se publica.",
    "The event's name, exactly as committed.":
        "El nombre del torneo, exactamente como se comprometió.",
    "Where to write the secret salt (default: EVENT-NAME.salt); never overwritten.":
        "Dónde escribir la sal secreta (por omisión: NOMBRE-DEL-TORNEO.salt); nunca se "
        "sobrescribe.",
    "During the event: the setups of a round, derived from the committed salt.":
        "Durante el torneo: las posiciones de una ronda, obtenidas de la sal comprometida.",
    "The salt file written by 'draw commit'.": "El fichero de sal que escribió 'draw commit'.",
    "Round number, or a list such as 1-9 or 1,3,5-6.":
        "Número de ronda, o una lista como 1-9 o 1,3,5-6.",
    "Boards in the round.": "Mesas de la ronda.",
    "Give every board its own setup (default: one setup per round for all boards).":
        "Da a cada mesa su propia posición (por omisión: una por ronda para todas las mesas).",
    "After the event: check the salt against the commitment and reproduce the setups.":
        "Tras el torneo: comprueba la sal frente al compromiso y reproduce las posiciones.",
    "Exits 0 and prints the setups when the commitment matches; exits 1 when it does not.":
        "Termina con 0 e imprime las posiciones si el compromiso coincide; con 1 si no.",
    "The salt revealed after the event (64 hex digits).":
        "La sal revelada tras el torneo (64 cifras hexadecimales).",
    "A round revealed in the hall and the digits drawn there (repeatable; docs/shuffler.md "
    "§6).":
        "Una ronda revelada en la sala y las cifras sorteadas allí (se puede repetir; "
        "docs/shuffler.md §6).",
    "The published commitment.": "El compromiso publicado.",
    # draw verify-game (issue 32, docs/shuffler.md §10)
    "Recompute an online game's setup (server seed, client value).":
        "Recalcula la posición de una partida en línea (semilla del servidor, valor del "
        "cliente).",
    "An online game's setup from its two values (docs/shuffler.md §10).":
        "La posición de una partida en línea a partir de sus dos valores (docs/shuffler.md "
        "§10).",
    "Exits 0 and prints the setup (and whether the commitment matches); 1 when the seed does "
    "not give the commitment; 2 for a malformed value.":
        "Termina con 0 e imprime la posición (y si el compromiso coincide); con 1 si la "
        "semilla no da el compromiso; con 2 si un valor está mal formado.",
    "The game's revealed server seed (64 hex digits; PGN tag SetupServerSeed).":
        "La semilla del servidor revelada de la partida (64 cifras hexadecimales; etiqueta PGN "
        "SetupServerSeed).",
    "The joiner's client value (PGN tag SetupClientValue; omit or '-' for none).":
        "El valor del cliente de quien se unió (etiqueta PGN SetupClientValue; omítelo o usa "
        "'-' si no hubo).",
    "The commitment shown with the seek (PGN tag SetupCommit): checked when given.":
        "El compromiso que mostraba la búsqueda (etiqueta PGN SetupCommit): se comprueba si "
        "se da.",
}

_SPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """``text`` with its whitespace folded to single spaces (docstrings wrap lines)."""
    return _SPACE.sub(" ", text).strip()


_FOLDED = {fold(k): v for k, v in SPANISH_HELP.items()}


def spanish_help(text: str) -> str | None:
    """The Spanish of an English help text, or None when the catalogue lacks it."""
    return _FOLDED.get(fold(text))
