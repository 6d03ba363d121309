"""The API's errors: one catalogue of stable codes, each with its text in English and
Spanish, and :class:`ApiError`, the refused request that names one of them.

A client decides on ``code`` (stable) and shows ``detail`` (in the request's language:
``?lang=es`` or ``Accept-Language: es``), ``detail_en`` or ``detail_es``.  Texts that come
from the rules core or another lower layer (a FEN's defect, a tournament's refusal) are a
``reason`` parameter: it stays English but for the fixed sentences :data:`_CORE_ES`
translates, and the Spanish text around it says what kind of error it is (docs/server.md,
errors).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, TypedDict, cast, get_args

from randomchess.accounts.ratings import RatingError
from randomchess.analysis.core import AnalysisError
from randomchess.analysis.engines import EngineUnavailableError
from randomchess.clock import TimeControlError
from randomchess.errors import (
    AmbiguousMoveError,
    BoardSizeError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    LanguageError,
    NotASetupError,
)
from randomchess.pgn import PgnError
from randomchess.startpos import SetupNumberError
from randomchess.tournament import errors as tournament_errors
from randomchess.variants import UnknownVariantError

Lang = Literal["en", "es"]


class Bilingual(NamedTuple):
    """A parameter already written in both languages (a colour, an engine's message)."""

    en: str
    es: str


COLOR_WORDS = {"white": Bilingual("white", "blancas"), "black": Bilingual("black", "negras")}
# The API's termination names (contract.TerminationName) in Spanish, for the texts that name
# one; the English is the name itself.
_TERMINATIONS_ES = {
    "checkmate": "jaque mate", "stalemate": "ahogado", "dead position": "posición muerta",
    "fivefold repetition": "quíntuple repetición",
    "seventy-five-move rule": "regla de las setenta y cinco jugadas",
    "threefold repetition": "triple repetición",
    "fifty-move rule": "regla de las cincuenta jugadas", "resignation": "abandono",
    "agreement": "mutuo acuerdo", "time forfeit": "tiempo agotado", "aborted": "anulación",
}


def termination_words(name: str | None) -> Bilingual:
    """A stored termination name in both languages (the name itself where unknown)."""
    text = str(name)
    return Bilingual(text, _TERMINATIONS_ES.get(text, text))

# Every code the API answers with.  The Literal lets mypy check each raise site; a test
# checks it names exactly the catalogue's keys.
ErrorCode = Literal[
    "request.invalid", "request.too_large", "request.body_timeout", "request.head_timeout",
    "request.head_too_large",
    "request.too_deep", "http.not_found", "http.method_not_allowed", "http.error",
    "db.down", "db.timeout",
    "game.not_found", "game.bad_id", "game.over", "game.time_up", "game.ended_before",
    "game.busy", "game.nothing_to_do", "game.not_over", "game.unknown_action",
    "game.too_late_to_abort", "game.rated_needs_two_players", "game.rated_needs_clock",
    "clock.invalid", "clock.not_online", "clock.out_of_range",
    "seat.wrong_token", "seat.token_required", "seat.claim_too_late", "seat.not_held",
    "seat.taken", "invite.used", "invite.wrong",
    "turn.not_yours", "move.empty", "move.missing", "move.illegal", "move.malformed",
    "move.ambiguous",
    "draw.already_offered", "draw.no_offer", "draw.own_offer", "claim.not_your_turn",
    "claim.none", "claim.bad_move", "takeback.none", "takeback.too_early",
    "takeback.already_asked",
    "takeback.no_offer", "takeback.own_offer",
    "rematch.already_offered", "rematch.fixed_setup", "rematch.no_offer",
    "rematch.own_offer", "preview.running", "preview.none", "preview.already_ready",
    "rate.too_many_games", "rate.too_many_events", "rate.too_many_attempts",
    "level.out_of_range", "level.no_computer", "level.needs_engine",
    "setup.ascii_digits", "setup.no_legal_move", "setup.invalid", "setup.bad_number",
    "setup.out_of_range", "fen.invalid", "variant.unknown", "pgn.invalid",
    "language.unknown", "board.size", "rating.invalid", "input.invalid",
    "evaluations.unknown_variant", "evaluations.not_evaluated", "evaluations.not_installed",
    "puzzle.unknown_variant", "puzzle.unknown_theme", "puzzle.not_found", "puzzle.none",
    "puzzle.too_many_moves",
    "analysis.invalid", "analysis.fen_and_setup", "analysis.worker_failed",
    "engine.unavailable", "engine.no_worker", "engine.queue_down", "engine.timeout",
    "engine.worker_failed", "review.none", "review.stale", "review.game_in_progress",
    "frame.invalid", "frame.binary", "frame.too_large", "frame.no_position",
    "account.login_required", "account.not_logged_in", "account.csrf", "account.bad_name",
    "account.bad_password", "account.name_taken", "account.wrong_login",
    "account.wrong_password", "account.busy", "player.not_found", "player.not_found_to_challenge",
    "seek.not_yours", "seek.gone", "seek.own", "seek.rating_outside", "seek.empty_range",
    "seek.no_fresh_setup", "seek.too_many",
    "fairdraw.client_malformed", "fairdraw.revealed", "fairdraw.replayed",
    "fairdraw.unknown", "fairdraw.other_variant", "fairdraw.not_here",
    "fairdraw.not_numbered",
    "tournament.invalid", "tournament.unknown_event", "tournament.unknown_player",
    "tournament.registration", "tournament.pairing", "tournament.result",
    "tournament.correction", "tournament.closed", "tournament.verification",
    "tournament.organiser_only", "tournament.no_board",
    "tournament.no_round", "tournament.no_format",
    "tournament.rated_needs_clock", "tournament.reveal", "tournament.preparation",
    "tournament.not_revealed", "tournament.owner_only", "tournament.staff",
    "tournament.game_entry", "tournament.game_exists", "tournament.armageddon_clock",
    "tournament.bid_not_yours", "tournament.armageddon_not_online",
]

# code: (English, Spanish), str.format templates; a parameter in both languages is a
# Bilingual, and each text takes its own half.
CATALOGUE: dict[str, tuple[str, str]] = {
    # -- the request itself
    "request.invalid": ("{reason}", "la petición no es válida ({fields})"),
    "request.too_large": ("request body too large",
                          "el cuerpo de la petición es demasiado grande"),
    "request.body_timeout": ("request body not received within {seconds:g} s",
                             "no se recibió el cuerpo de la petición en {seconds:g} s"),
    "request.head_too_large": ("the request's head is too large",
                               "la cabecera de la petición es demasiado grande"),
    "request.head_timeout": ("request head not received in time",
                             "no se recibió a tiempo la cabecera de la petición"),
    "request.too_deep": ("JSON nested too deeply (more than {levels} levels)",
                         "JSON anidado demasiado (más de {levels} niveles)"),
    "http.not_found": ("Not Found", "No encontrado"),
    "http.method_not_allowed": ("method not allowed", "método no permitido"),
    "http.error": ("{reason}", "error HTTP {http_status}: {reason}"),
    "db.down": ("the database is not available; try again in a moment",
                "la base de datos no está disponible; inténtalo de nuevo en un momento"),
    "db.timeout": ("the database did not answer within {seconds:g} s; try again",
                   "la base de datos no respondió en {seconds:g} s; inténtalo de nuevo"),
    # -- games and seats
    "game.not_found": ("no such game", "no existe esa partida"),
    "game.bad_id": ("no such game: a game id is 1 to 24 letters, digits, '-' or '_'",
                    "no existe esa partida: el identificador de una partida tiene de 1 a 24 "
                    "letras, cifras, '-' o '_'"),
    "game.over": ("the game is over ({result}, {termination})",
                  "la partida ha terminado ({result}, {termination})"),
    "game.time_up": ("time is up: the game ended on time before that ({result})",
                     "se acabó el tiempo: la partida terminó por tiempo antes de eso "
                     "({result})"),
    "game.ended_before": ("the game ended by {termination} before that ({result})",
                          "la partida terminó por {termination} antes de eso ({result})"),
    "game.busy": ("the game is changing too fast; try again",
                  "la partida cambia demasiado deprisa; inténtalo de nuevo"),
    "game.nothing_to_do": ("nothing to do", "no hay nada que hacer"),
    "game.not_over": ("the game is not over yet", "la partida aún no ha terminado"),
    "game.unknown_action": ("unknown action {action!r}", "acción desconocida {action!r}"),
    "game.too_late_to_abort": (
        "too late to abort: both sides have moved (resign or offer a draw)",
        "demasiado tarde para anular: los dos bandos han jugado (abandona u ofrece tablas)"),
    "preview.running": (
        "the setup preview is still on: the board unlocks in {seconds} s (or when both "
        "players are ready)",
        "la vista previa de la posición sigue en curso: el tablero se desbloquea en "
        "{seconds} s (o cuando los dos jugadores estén listos)"),
    "preview.none": ("there is no setup preview running to be ready for",
                     "no hay ninguna vista previa de la posición en curso"),
    "preview.already_ready": ("you have already said you are ready",
                              "ya has dicho que estás listo"),
    "game.rated_needs_two_players": ("only games between two players can be rated",
                                     "solo se puntúan las partidas entre dos jugadores"),
    "clock.invalid": ("{reason}", "{reason}"),
    "clock.not_online": ("the time control {control} has no clock to run online: give "
                         "periods of time (e.g. 30/1500:300+5)",
                         "el control de tiempo {control} no tiene un reloj que funcione en "
                         "línea: indica periodos de tiempo (p. ej. 30/1500:300+5)"),
    "clock.out_of_range": ("the time control {control} is out of range: the first period "
                           "needs some time, a period at most 600 minutes, a bonus at most "
                           "600 seconds",
                           "el control de tiempo {control} está fuera de rango: el primer "
                           "periodo necesita tiempo, un periodo dura como mucho 600 minutos "
                           "y una bonificación 600 segundos"),
    "game.rated_needs_clock": ("a rated game needs a clock",
                               "una partida puntuada necesita reloj"),
    "seat.wrong_token": ("wrong token for this game",
                         "ese token no es de ningún asiento de esta partida"),
    "seat.token_required": ("a seat token is required", "hace falta el token de un asiento"),
    "seat.claim_too_late": ("a rated game's seats are claimed before it ends",
                            "los asientos de una partida puntuada se reclaman antes de que "
                            "termine"),
    "seat.not_held": ("this account holds no seat in that game",
                      "esta cuenta no ocupa ningún asiento en esa partida"),
    "seat.taken": ("another account holds that seat", "otra cuenta ocupa ese asiento"),
    "invite.used": ("this invitation has already been used", "esta invitación ya se ha usado"),
    "invite.wrong": ("wrong invitation for this game",
                     "esa invitación no es de esta partida"),
    # -- moves and offers
    "turn.not_yours": ("not your turn: {color} to move", "no es tu turno: juegan las {color}"),
    "move.empty": ("illegal move: empty or overlong move text",
                   "jugada ilegal: el texto de la jugada está vacío o es demasiado largo"),
    "move.missing": ("missing move", "falta la jugada"),
    "move.illegal": ("{reason}", "jugada ilegal: {reason}"),
    "move.malformed": ("{reason}", "jugada mal escrita: {reason}"),
    "move.ambiguous": ("{reason}", "jugada ambigua: {reason}"),
    "draw.already_offered": ("you have already offered a draw", "ya has ofrecido tablas"),
    "draw.no_offer": ("there is no draw offer to answer",
                      "no hay ninguna oferta de tablas que responder"),
    "draw.own_offer": ("you cannot answer your own draw offer",
                       "no puedes responder a tu propia oferta de tablas"),
    "claim.not_your_turn": ("only the player to move may claim a draw",
                            "solo quien tiene el turno puede reclamar tablas"),
    "claim.none": ("no draw to claim: the position has not occurred three times and fewer "
                   "than 50 moves were made without a capture or pawn move",
                   "no hay tablas que reclamar: la posición no se ha repetido tres veces y se "
                   "han hecho menos de 50 jugadas sin captura ni movimiento de peón"),
    "claim.bad_move": ("no draw to claim with that move (threefold repetition or fifty-move "
                       "rule)",
                       "esa jugada no permite reclamar tablas (triple repetición o regla de "
                       "las cincuenta jugadas)"),
    "takeback.too_early": ("once both sides have moved, the first moves cannot be taken back",
                           "cuando ambos bandos han jugado, las primeras jugadas no se pueden "
                           "deshacer"),
    "takeback.none": ("there is no move of yours to take back",
                      "no tienes ninguna jugada que deshacer"),
    "takeback.already_asked": ("you have already asked to take back",
                               "ya has pedido deshacer la jugada"),
    "takeback.no_offer": ("there is no takeback offer to answer",
                          "no hay ninguna petición de deshacer que responder"),
    "takeback.own_offer": ("you cannot answer your own takeback offer",
                           "no puedes responder a tu propia petición de deshacer"),
    "rematch.already_offered": ("you have already offered a rematch",
                                "ya has ofrecido la revancha"),
    "rematch.fixed_setup": ("this game's seek asked for a new random setup per game",
                            "la búsqueda de esta partida pidió una posición aleatoria nueva "
                            "en cada partida"),
    "rematch.no_offer": ("there is no rematch offer to answer",
                         "no hay ninguna oferta de revancha que responder"),
    "rematch.own_offer": ("you cannot answer your own rematch offer",
                          "no puedes responder a tu propia oferta de revancha"),
    # -- limits
    "rate.too_many_games": ("too many games created from this address; wait a minute",
                            "demasiadas partidas creadas desde esta dirección; espera un "
                            "minuto"),
    "rate.too_many_events": ("too many events created from this address; wait a minute",
                             "demasiados torneos creados desde esta dirección; espera un "
                             "minuto"),
    "rate.too_many_attempts": ("too many attempts; wait a few minutes",
                               "demasiados intentos; espera unos minutos"),
    # -- levels, setups and the rules core (``reason``: the core's English text)
    "level.out_of_range": ("level must be 1..{maximum} ({maximum} = maximum)",
                           "el nivel va de 1 a {maximum} ({maximum} = máximo)"),
    "level.no_computer": ("the computer does not play {variant}",
                          "el ordenador no juega a {variant}"),
    "level.needs_engine": ("level {level} needs Stockfish or Fairy-Stockfish for this variant, "
                           "which this server does not have: levels {low}..{high} are offered "
                           "(GET /api/levels)",
                           "el nivel {level} necesita Stockfish o Fairy-Stockfish para esta "
                           "variante, y este servidor no lo tiene: se ofrecen los niveles "
                           "{low} a {high} (GET /api/levels)"),
    "setup.ascii_digits": ("bad setup: a setup number is written with the digits 0-9",
                           "posición inicial no válida: un número de posición se escribe con "
                           "las cifras 0-9"),
    "setup.no_legal_move": ("bad setup: the side to move has no legal move",
                            "posición inicial no válida: el bando que mueve no tiene ninguna "
                            "jugada legal"),
    "setup.invalid": ("{reason}", "no es una posición inicial válida: {reason}"),
    "setup.bad_number": ("{reason}", "número de posición no válido: {reason}"),
    "setup.out_of_range": ("{number} is not a {variant} setup (0-{last})",
                           "{number} no es una posición de {variant} (0-{last})"),
    "fen.invalid": ("{reason}", "FEN no válido: {reason}"),
    "variant.unknown": ("{reason}", "variante desconocida: {reason}"),
    "pgn.invalid": ("{reason}", "PGN no válido: {reason}"),
    "language.unknown": ("{reason}", "idioma desconocido: {reason}"),
    "board.size": ("{reason}", "tamaño de tablero no válido: {reason}"),
    "rating.invalid": ("{reason}", "no se puede puntuar: {reason}"),
    "input.invalid": ("{reason}", "dato no válido: {reason}"),
    # -- puzzles (issue 33)
    "puzzle.unknown_variant": ("there are puzzles for {variants}, not {variant!r}",
                               "hay problemas de {variants}, no de {variant!r}"),
    "puzzle.unknown_theme": ("unknown puzzle theme {theme!r}",
                             "tema de problema desconocido {theme!r}"),
    "puzzle.not_found": ("no puzzle {id!r}", "no existe el problema {id!r}"),
    "puzzle.none": ("no puzzle of {variant} with that theme",
                    "no hay ningún problema de {variant} con ese tema"),
    "puzzle.too_many_moves": ("this puzzle is solved in {steps} moves, not {moves}",
                              "este problema se resuelve en {steps} jugadas, no en {moves}"),
    "evaluations.unknown_variant": ("unknown variant {variant!r}",
                                    "variante desconocida {variant!r}"),
    "evaluations.not_evaluated": ("setup evaluations exist for {variants}, not {variant}",
                                  "hay evaluaciones de posiciones para {variants}, no para "
                                  "{variant}"),
    "evaluations.not_installed": ("no setup evaluations are installed for {variant}",
                                  "no hay evaluaciones de posiciones instaladas para "
                                  "{variant}"),
    # -- analysis and engines
    "analysis.invalid": ("{reason}", "análisis no válido: {reason}"),
    "analysis.fen_and_setup": ("give a fen or a setup number, not both",
                               "da un FEN o un número de posición, no los dos"),
    "analysis.worker_failed": ("the analysis worker failed ({name})",
                               "falló el proceso de análisis ({name})"),
    "engine.unavailable": ("{reason}", "{reason}"),
    "engine.no_worker": ("no engine worker is connected; start one with "
                         "`randomchess worker --redis URL`",
                         "no hay ningún proceso de motor conectado; arranca uno con "
                         "`randomchess worker --redis URL`"),
    "engine.queue_down": ("the engine queue (Redis) is not reachable; try again in a moment",
                          "no se llega a la cola de motores (Redis); inténtalo de nuevo en un "
                          "momento"),
    "engine.timeout": ("no engine worker answered within {seconds:g} s",
                       "ningún proceso de motor respondió en {seconds:g} s"),
    "engine.worker_failed": ("the engine worker failed ({job}: {error})",
                             "falló el proceso de motor ({job}: {error})"),
    "review.game_in_progress": ("no engine help on a game between people while it is "
                                "played: the review opens when the game ends",
                                "no hay ayuda del motor en una partida entre personas mientras "
                                "se juega: el análisis se abre cuando termina la partida"),
    "review.none": ("this game has no review yet", "esta partida aún no tiene análisis"),
    "review.stale": ("the game changed since its review; review it again",
                     "la partida cambió desde su análisis; analízala de nuevo"),
    # -- WebSocket frames
    "frame.invalid": ("bad message: {reason}", "mensaje no válido: {reason}"),
    "frame.binary": ("binary frames are not accepted: send JSON text",
                     "no se aceptan mensajes binarios: envía texto JSON"),
    "frame.too_large": ("message too large", "mensaje demasiado grande"),
    "frame.no_position": ("analyse needs a position", "para analizar hace falta una posición"),
    # -- accounts and the lobby
    "account.login_required": ("log in first", "inicia sesión primero"),
    "account.not_logged_in": ("not logged in", "no has iniciado sesión"),
    "account.csrf": ("missing or wrong CSRF token", "falta el token CSRF o es incorrecto"),
    "account.bad_name": ("a name is 3 to 20 letters, digits, '-' or '_', starting with a "
                         "letter or digit",
                         "un nombre tiene de 3 a 20 letras, cifras, '-' o '_' y empieza por "
                         "una letra o una cifra"),
    "account.bad_password": ("a password is {low} to {high} characters",
                             "una contraseña tiene de {low} a {high} caracteres"),
    "account.name_taken": ("that name is taken", "ese nombre ya está en uso"),
    "account.wrong_login": ("wrong name or password", "nombre o contraseña incorrectos"),
    "account.wrong_password": ("wrong password", "contraseña incorrecta"),
    "account.busy": ("too many log-ins are being checked right now: try again in a moment",
                     "se están comprobando demasiados inicios de sesión: inténtalo de nuevo "
                     "en un momento"),
    "player.not_found": ("no such player", "no existe ese jugador"),
    "player.not_found_to_challenge": ("no such player to challenge",
                                      "no existe ese jugador al que desafiar"),
    "seek.not_yours": ("no such seek of yours", "no tienes ninguna búsqueda así"),
    "seek.too_many": ("you have {limit} open seeks and challenges already: take one back "
                      "first", "ya tienes {limit} búsquedas y desafíos abiertos: retira uno "
                      "primero"),
    "seek.gone": ("that seek is gone", "esa búsqueda ya no está"),
    "seek.own": ("that is your own seek", "esa búsqueda es tuya"),
    "seek.rating_outside": ("your rating is outside this seek's range",
                            "tu puntuación está fuera del rango de esta búsqueda"),
    "seek.empty_range": ("the rating range is empty", "el rango de puntuación está vacío"),
    "seek.no_fresh_setup": ("bad seek: {variant} has one setup: no new random setup per game",
                            "búsqueda no válida: {variant} tiene una sola posición inicial: "
                            "no hay posición aleatoria nueva en cada partida"),
    # -- the setup both players can verify (issue 32, docs/shuffler.md §10)
    "fairdraw.client_malformed": (
        "bad client value: it is 32-64 lower-case hexadecimal digits (0-9, a-f)",
        "valor del cliente no válido: son de 32 a 64 dígitos hexadecimales en minúscula "
        "(0-9, a-f)"),
    "fairdraw.revealed": (
        "this setup has already been drawn and revealed: a client value now comes too late",
        "esta posición inicial ya se sorteó y se reveló: un valor del cliente llega ahora "
        "demasiado tarde"),
    "fairdraw.unknown": (
        "there is no open setup draw with this id (never made, or lapsed after an hour): "
        "ask for a new one",
        "no hay ningún sorteo de posición abierto con este identificador (nunca se hizo, o "
        "caducó al cabo de una hora): pide uno nuevo"),
    "fairdraw.other_variant": (
        "this setup draw was made for {drawn}, not {variant}",
        "este sorteo de posición se hizo para {drawn}, no para {variant}"),
    "fairdraw.not_here": (
        "a setup draw of your own goes only with a game against the computer on a random "
        "setup",
        "un sorteo de posición propio solo va con una partida contra la computadora con "
        "posición aleatoria"),
    "fairdraw.not_numbered": (
        "{variant} has no numbered setups to draw from verifiably",
        "{variant} no tiene posiciones numeradas para un sorteo verificable"),
    "fairdraw.replayed": (
        "this client value was already used for another game: send a fresh random one",
        "este valor del cliente ya se usó en otra partida: envía uno aleatorio nuevo"),
    # -- tournaments (``reason``: the tournament layer's English text)
    "tournament.invalid": ("{reason}", "petición de torneo no válida: {reason}"),
    "tournament.unknown_event": ("{reason}", "torneo desconocido: {reason}"),
    "tournament.unknown_player": ("{reason}", "jugador desconocido en el torneo: {reason}"),
    "tournament.registration": ("{reason}", "inscripción no válida: {reason}"),
    "tournament.pairing": ("{reason}", "no se puede emparejar: {reason}"),
    "tournament.result": ("{reason}", "resultado no válido: {reason}"),
    "tournament.correction": ("{reason}", "corrección no válida: {reason}"),
    "tournament.closed": ("{reason}", "el torneo está cerrado: {reason}"),
    "tournament.verification": ("{reason}", "la verificación falló: {reason}"),
    "tournament.organiser_only": ("this needs the event's organiser: sign in as its organiser "
                                  "or a co-arbiter, or give its organiser secret",
                                  "esto necesita al organizador del torneo: entra con la "
                                  "cuenta del organizador o de un coárbitro, o da su clave "
                                  "de organizador"),
    "tournament.owner_only": ("only the organiser adds or removes co-arbiters",
                              "solo el organizador añade o quita coárbitros"),
    "tournament.staff": ("{reason}", "coárbitro no válido: {reason}"),
    "tournament.no_round": ("round {round} has not been paired",
                            "la ronda {round} no está emparejada"),
    "tournament.no_board": ("round {round} has no game on board {board}",
                            "la ronda {round} no tiene partida en el tablero {board}"),
    "tournament.no_format": ("no export format {format!r}; use trf, pgn, csv, html or "
                             "bulletin",
                             "no existe el formato de exportación {format!r}; usa trf, pgn, "
                             "csv, html o bulletin"),
    # the reason is the tournament layer's, in both languages (TournamentError.es)
    "tournament.reveal": ("{reason}", "{reason}"),
    "tournament.preparation": ("{reason}", "{reason}"),
    "tournament.not_revealed": ("round {round}'s setup is revealed in the hall and is not "
                                "revealed yet",
                                "la posición de la ronda {round} se revela en la sala y aún "
                                "no se ha revelado"),
    "tournament.rated_needs_clock": ("a rated round needs the event's time control as "
                                     "seconds+increment (e.g. 180+2)",
                                     "una ronda puntuada necesita el control de tiempo del "
                                     "torneo como segundos+incremento (p. ej. 180+2)"),
    "tournament.armageddon_clock": (
        "this Armageddon cannot be played online: Black's clock {black} may differ from "
        "White's {white} only in the first period's time",
        "este Armagedón no puede jugarse en línea: el reloj de las negras {black} solo puede "
        "diferir del de las blancas {white} en el tiempo del primer periodo"),
    # a game typed from its scoresheet (issue 31): the reason names game, ply and token
    "tournament.bid_not_yours": (
        "this bid needs your seat in one of the match's games (your personal link, or the "
        "account that holds the seat)",
        "esta puja necesita tu asiento en una de las partidas del match (tu enlace personal "
        "o la cuenta que tiene el asiento)"),
    "tournament.armageddon_not_online": (
        "the Armageddon of this match is not online yet: it opens when both bids are in",
        "el Armagedón de este match aún no está en línea: se abre cuando estén las dos "
        "pujas"),
    "tournament.game_entry": ("{reason}", "{reason}"),
    "tournament.game_exists": ("{reason}", "{reason}"),
}

# A wrapped exception's own text with what the site adds around it ("bad setup: ...").
Context = Literal["move.sent", "setup.bad", "seek.bad"]
CONTEXTS: dict[str, tuple[str, str]] = {
    "move.sent": ("illegal move {move!r}: {reason}", "no se puede jugar {move!r}: {reason}"),
    "setup.bad": ("bad setup: {reason}", "posición inicial no válida: {reason}"),
    "seek.bad": ("bad seek: {reason}", "búsqueda no válida: {reason}"),
}

# The code of a wrapped exception, by class: the first match in this order wins (subclasses
# before their bases).
_CLASS_CODES: tuple[tuple[type[BaseException], ErrorCode], ...] = (
    (UnknownVariantError, "variant.unknown"),
    (TimeControlError, "clock.invalid"),
    (SetupNumberError, "setup.bad_number"),
    (NotASetupError, "setup.invalid"),
    (FenError, "fen.invalid"),
    (IllegalMoveError, "move.illegal"),
    (AmbiguousMoveError, "move.ambiguous"),
    (InvalidMoveError, "move.malformed"),
    (PgnError, "pgn.invalid"),
    (LanguageError, "language.unknown"),
    (BoardSizeError, "board.size"),
    (EngineUnavailableError, "engine.unavailable"),
    (AnalysisError, "analysis.invalid"),
    (RatingError, "rating.invalid"),
    (tournament_errors.GameExistsError, "tournament.game_exists"),
    (tournament_errors.GameEntryError, "tournament.game_entry"),
    (tournament_errors.UnknownEventError, "tournament.unknown_event"),
    (tournament_errors.UnknownPlayerError, "tournament.unknown_player"),
    (tournament_errors.RegistrationError, "tournament.registration"),
    (tournament_errors.PairingError, "tournament.pairing"),
    (tournament_errors.ResultError, "tournament.result"),
    (tournament_errors.CorrectionError, "tournament.correction"),
    (tournament_errors.EventClosedError, "tournament.closed"),
    (tournament_errors.VerificationError, "tournament.verification"),
    (tournament_errors.RevealError, "tournament.reveal"),
    (tournament_errors.PreparationError, "tournament.preparation"),
    (tournament_errors.StaffError, "tournament.staff"),
    (tournament_errors.TournamentError, "tournament.invalid"),
    (ValueError, "input.invalid"),
)

# The rules core writes its reasons in English with the values inside (f-strings): the
# sentences without values are translated here; the rest stay English in ``detail_es``.
_CORE_ES = {
    "empty FEN": "FEN vacío",
    "FEN must be a string": "el FEN debe ser un texto",
    "the side not to move is in check": "el bando que no mueve está en jaque",
    "null moves are not supported": "no se admiten jugadas nulas",
    "not a start position: White moves first":
        "no es una posición inicial: empiezan las blancas",
    "not a start position: no en passant capture is possible":
        "no es una posición inicial: no puede haber captura al paso",
    "a clock cannot be negative": "un reloj no puede ser negativo",
    "a game without a clock has no speed class and cannot be rated":
        "una partida sin reloj no tiene ritmo y no se puede puntuar",
}


def code_of(exc: BaseException) -> ErrorCode:
    """The code of a wrapped lower-layer exception, by its class."""
    for cls, code in _CLASS_CODES:
        if isinstance(exc, cls):
            return code
    return "input.invalid"


def reason_of(exc: BaseException) -> Bilingual:
    """An exception's text in both languages: its own where it offers both (an engine's
    message), a translated fixed sentence, or the English text twice."""
    if isinstance(exc, EngineUnavailableError):
        return Bilingual(exc.message("en"), exc.message("es"))
    if isinstance(exc, TimeControlError):
        return Bilingual(str(exc), exc.es)
    text = str(exc)
    if isinstance(exc, tournament_errors.TournamentError):  # it says itself in Spanish
        return Bilingual(text, exc.localized("es"))
    return Bilingual(text, _CORE_ES.get(text, text))


def render(template: str, lang: Lang, params: Mapping[str, object]) -> str:
    """``template`` filled with ``params``, each in ``lang`` where it has two languages."""
    values: dict[str, object] = {}
    for name, value in params.items():
        if isinstance(value, BaseException):
            value = reason_of(value)
        if isinstance(value, Bilingual):
            value = value.es if lang == "es" else value.en
        values[name] = value
    return string.Formatter().vformat(template, (), values)


def texts(code: ErrorCode, params: Mapping[str, object] | None = None,
          context: Context | None = None) -> Bilingual:
    """The text of ``code`` (or of its ``context``'s template) in both languages."""
    en, es = CONTEXTS[context] if context is not None else CATALOGUE[code]
    p = params or {}
    return Bilingual(render(en, "en", p), render(es, "es", p))


class ErrorBody(TypedDict):
    """Every error the API answers (HTTP body, and the fields of a WebSocket error frame)."""

    code: str
    detail: str
    detail_en: str
    detail_es: str


def error_body(code: ErrorCode, lang: Lang = "en", **params: object) -> ErrorBody:
    t = texts(code, params)
    return {"code": code, "detail": t.es if lang == "es" else t.en, "detail_en": t.en,
            "detail_es": t.es}


class ApiError(Exception):
    """A refused request: HTTP status, the catalogue's code and its parameters.

    ``detail`` is the English text, as clients and tests have always read it;
    :meth:`body` gives both languages.
    """

    def __init__(self, status: int, code: ErrorCode, *, context: Context | None = None,
                 **params: object) -> None:
        if code not in CATALOGUE:  # a typo mypy could not see (a computed code)
            raise KeyError(f"error code {code!r} is not in the catalogue")
        self.status = status
        self.code = code
        self.params = params
        self.texts = texts(code, params, context)
        super().__init__(self.texts.en)

    @property
    def detail(self) -> str:
        return self.texts.en

    @classmethod
    def wrap(cls, status: int, exc: BaseException, context: Context | None = None,
             **params: object) -> ApiError:
        """A refusal for a lower layer's exception: its class's code, its text as
        ``reason`` (inside ``context``'s template when the site adds words around it)."""
        return cls(status, code_of(exc), context=context, reason=exc, **params)

    @classmethod
    def from_job(cls, result: Mapping[str, Any]) -> ApiError:
        """The refusal an engine job reported: ``status``, ``code`` and ``error`` (English)
        with ``error_es`` when the job had both languages."""
        code = str(result.get("code", "analysis.invalid"))
        checked = cast(ErrorCode, code if code in CATALOGUE else "analysis.invalid")
        en = str(result["error"])
        reason = Bilingual(en, str(result.get("error_es", en)))
        return cls(int(result.get("status", 422)), checked, reason=reason)

    def body(self, lang: Lang = "en") -> ErrorBody:
        return {"code": self.code, "detail": self.texts.es if lang == "es" else self.texts.en,
                "detail_en": self.texts.en, "detail_es": self.texts.es}


def job_error(exc: BaseException, status: int = 422) -> dict[str, Any]:
    """An engine job's refusal, as :meth:`ApiError.from_job` reads it back."""
    reason = reason_of(exc)
    return {"error": reason.en, "error_es": reason.es, "code": code_of(exc), "status": status}


def lang_of(query: str | None, accept_language: str | None) -> Lang:
    """The language of an error's ``detail``: ``?lang=`` if given, else the client's most
    preferred language (RFC 9110 q-values) when that is Spanish; English otherwise."""
    if query:
        return "es" if query.strip().lower().startswith("es") else "en"
    best, best_q = "", 0.0
    for item in (accept_language or "").split(",")[:16]:
        tag, _, rest = item.strip().partition(";")
        q = 1.0
        for param in rest.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q <= 0:  # q=0 (or unreadable): "not acceptable"
            continue
        # Equal q: the earlier wins (browsers list in order of preference).
        if q > best_q:
            best, best_q = tag.strip().lower(), q
    return "es" if best.split("-")[0] == "es" else "en"


def lang_of_scope(scope: Mapping[str, Any]) -> Lang:
    """:func:`lang_of` for an ASGI scope (HTTP or WebSocket)."""
    query = None
    for part in scope.get("query_string", b"").decode("latin-1").split("&"):
        if part.startswith("lang="):
            query = part[5:]
    accept = None
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            accept = value.decode("latin-1")
    return lang_of(query, accept)


def catalogue_codes() -> tuple[str, ...]:
    """Every code of :data:`ErrorCode` (for the docs' list and its test)."""
    return get_args(ErrorCode)


def markdown_table() -> str:
    """The code list of docs/server.md (a test keeps the two equal)."""
    rows = ["| code | English | Spanish |", "| --- | --- | --- |"]
    for code in catalogue_codes():
        en, es = CATALOGUE[code]
        rows.append(f"| `{code}` | {_cell(en)} | {_cell(es)} |")
    rows += ["", "Wrapped texts around a lower layer's `{reason}` (the code is the exception's):",
             "", "| context | English | Spanish |", "| --- | --- | --- |"]
    for name, (en, es) in CONTEXTS.items():
        rows.append(f"| {name} | {_cell(en)} | {_cell(es)} |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")

