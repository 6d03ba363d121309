"""Every table of the project's database, on one ``MetaData`` (SQLAlchemy Core).

The wings query these tables; the Alembic migrations in ``randomchess/db/migrations`` create
them, and ``tests/test_db_schema.py`` checks with Alembic's autogenerate comparison that the
two say the same.  A new column is added here and in a new migration, together.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()

# ------------------------------------------------------------------ games (0001, 0006)
# A game is one row: its moves are a space-separated UCI list, so acknowledging a move is a
# single ``UPDATE ... WHERE version = ?`` that either commits whole or loses the race.
#
# THE ONE DEFINITION OF THE GAMES ROW.  A new games column is added here (and in a new
# migration) and nowhere else: build_support/games_row.py writes from this table the game
# service's typed record ``GameRow`` / ``GameRecord`` (its fields these columns in this
# order) and ``GameChanges`` into server/games/row.py (run ``make games-row``; a test checks
# the file is current).  ``info={"python": ...}`` names the contract enum a column holds;
# ``info={"set_once": True}`` keeps a column out of ``GameChanges``.
games = Table(
    "games", metadata,
    Column("id", String(24), primary_key=True),
    Column("variant", String(16), nullable=False),
    Column("number", Integer),
    Column("start_fen", Text, nullable=False),
    Column("fen", Text, nullable=False),
    Column("moves", Text, nullable=False),  # UCI, space-separated
    Column("san", Text, nullable=False),  # English SAN, space-separated
    Column("clock_log", Text, nullable=False),  # mover's ms left after each ply
    Column("status", String(8), nullable=False,  # waiting | playing | ended
           info={"python": "GameStatus"}),
    Column("result", String(8)),
    Column("termination", String(32), info={"python": "TerminationName"}),
    Column("opponent", String(8), nullable=False),  # computer | friend | hotseat
    Column("level", Integer),
    Column("computer_color", String(5)),
    # SHA-256 of the seat tokens and of the invite code: the database never holds a secret.
    Column("white_token", String(64)),
    Column("black_token", String(64)),
    Column("invite_hash", String(64)),
    Column("clock_initial_ms", BigInteger),
    Column("clock_increment_ms", BigInteger),
    Column("white_ms", BigInteger),
    Column("black_ms", BigInteger),
    Column("clock_started_at", BigInteger),  # epoch ms; NULL = stopped
    Column("draw_offer", String(5)),
    Column("takeback_offer", String(5)),
    Column("version", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False, info={"set_once": True}),
    Column("updated_at", BigInteger, nullable=False),
    Column("days_per_move", Integer),  # a correspondence game's days per move (0006)
    # The control in randomchess.clock's notation (PGN TimeControl, "30/1500:300+5",
    # "300+3d"); NULL: the simple initial + increment above, or the days per move (0008).
    Column("time_control", String(200)),
    # The setup preview (issue 32, 0015): its length (ms; NULL or 0: none), the epoch ms it
    # ends (set once both seats are taken; NULL before) and who declared ready
    # (white | black | both).
    Column("preview_ms", Integer),
    Column("preview_until", BigInteger),
    Column("preview_ready", String(5)),
    # Black's initial time when it is not clock_initial_ms: an Armageddon's (0020).
    Column("black_initial_ms", BigInteger),
    Index("ix_games_status", "status"),
)

# One row: when a server process last proved it was alive (the downtime policy).
server_state = Table(
    "server_state", metadata,
    Column("id", Integer, primary_key=True),
    Column("heartbeat_at", BigInteger, nullable=False),
)

# ------------------------------------------------------------------ reviews (0003)
game_reviews = Table(
    "game_reviews", metadata,
    Column("game_id", String(24), primary_key=True),
    Column("engine", String(64), nullable=False),
    Column("depth", Integer, nullable=False),
    Column("movetime", Integer, nullable=False),
    Column("moves", Text, nullable=False),  # UCI the review covers
    Column("review", Text, nullable=False),  # JSON (Review.as_dict)
    Column("created_at", BigInteger, nullable=False),
)

# ------------------------------------------------------------------ accounts (0004, 0006)
users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(20), nullable=False),
    Column("name_key", String(20), nullable=False, unique=True),  # lower-cased
    Column("password_hash", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)
sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the cookie
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Index("ix_sessions_user", "user_id"),
)
# which account holds which seat; user_id NULL once the account is deleted
game_seats = Table(
    "game_seats", metadata,
    Column("game_id", String(24), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("color", String(5), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    Index("ix_game_seats_user", "user_id"),
)
# rated or casual and the speed class, fixed when the game is made
game_terms = Table(
    "game_terms", metadata,
    Column("game_id", String(24), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("speed", String(16), nullable=False),
    # every rematch of a game from a fresh-setup seek draws a new setup (0006)
    Column("fresh_setup", Boolean, nullable=False, default=False, server_default=false()),
)
ratings = Table(
    "ratings", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(16), primary_key=True),
    Column("speed", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)
# one row per rated seat: the game is rated exactly once
rating_changes = Table(
    "rating_changes", metadata,
    Column("game_id", String(24), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("color", String(5), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("rd_after", Float, nullable=False),
    Column("rated_at", BigInteger, nullable=False),
)
# the lobby's open seeks and challenges (target_id set)
seeks = Table(
    "seeks", metadata,
    Column("id", String(16), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("target_id", Integer, ForeignKey("users.id", ondelete="CASCADE")),
    Column("variant", String(16), nullable=False),
    Column("number", Integer),  # NULL: a random setup
    Column("initial_ms", BigInteger, nullable=False),
    Column("increment_ms", BigInteger, nullable=False),
    Column("speed", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rating_min", Integer),
    Column("rating_max", Integer),
    Column("created_at", BigInteger, nullable=False),
    Column("days", Integer),  # days per move of a correspondence seek (0006)
    # every game from the seek (and its rematches) draws a new setup (0006)
    Column("fresh_setup", Boolean, nullable=False, default=False, server_default=false()),
    # the setup preview's length asked for, in seconds (NULL: the speed's default) (0015)
    Column("preview_s", Integer),
    # a seek's control in randomchess.clock's notation when minutes + increment do not say
    # it (multi-period, delay, Bronstein); NULL otherwise (0020)
    Column("time_control", String(200)),
)
# A seek's committed server seed for the setup both players can verify (issue 32, 0016,
# docs/shuffler.md §10): made with the seek, shown only as its SHA-256 until the game has
# started.  ``claimed_at`` is set once, by the one acceptance whose client value counts;
# ``client_value`` is NULL when the joiner sent none, and no value is used twice.
setup_commitments = Table(
    "setup_commitments", metadata,
    Column("seek_id", String(16), primary_key=True),
    Column("variant", String(16), nullable=False),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("claimed_at", BigInteger),
    Column("client_value", String(64), unique=True),
    Column("game_id", String(24), ForeignKey("games.id", ondelete="CASCADE"), unique=True),
)

# ------------------------------------------------------------------ setup evaluations (0005)
# One committed row per evaluated setup, so an interrupted batch resumes where it stopped.
setup_evaluations = Table(
    "setup_evaluations", metadata,
    Column("variant", String(16), primary_key=True),
    Column("engine", String(40), primary_key=True),
    Column("depth", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("cp", Integer),
    Column("mate", Integer),
    Column("best", String(16), nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

# ------------------------------------------------------------ opening explorer (0014, 0018, 0027)
# One row per (setup, position, source, speed class, rating band, move): the games that
# played the move there, their results and the sum of their players' mean ratings
# (randomchess/explorer).  The primary key's order serves the query of one position, all
# sources or some.  ``position`` is the position's 64-bit key in hex (explorer/counts.py);
# ``speed`` is "" and ``band`` -1 for a game whose speed or ratings are not known.
explorer_moves = Table(
    "explorer_moves", metadata,
    Column("variant", String(16), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("position", String(16), primary_key=True),
    Column("source", String(40), primary_key=True),
    Column("speed", String(16), primary_key=True),
    Column("band", Integer, primary_key=True),
    Column("move", String(12), primary_key=True),
    Column("games", Integer, nullable=False),
    Column("white_wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("black_wins", Integer, nullable=False),
    Column("rating_sum", BigInteger, nullable=False),
    Column("rated", Integer, nullable=False),
    sqlite_with_rowid=False,  # 0027: the primary key is the table (one B-tree; issue 33)
)

# The games behind the counts (0018): one row per counted game, and one link per (position,
# move) it counted, for the list of games behind a move.  ``game_id`` is this server's game.
explorer_games = Table(
    "explorer_games", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source", String(40), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("white", String(100), nullable=False),
    Column("black", String(100), nullable=False),
    Column("white_elo", Integer),
    Column("black_elo", Integer),
    Column("result", String(8), nullable=False),
    Column("date", String(10), nullable=False),
    Column("event", String(100), nullable=False),
    Column("speed", String(16), nullable=False),
    Column("band", Integer, nullable=False),
    Column("game_id", String(24)),
)
explorer_links = Table(
    "explorer_links", metadata,
    Column("variant", String(16), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("position", String(16), primary_key=True),
    Column("move", String(12), primary_key=True),
    Column("game", Integer, ForeignKey("explorer_games.id", ondelete="CASCADE"),
           primary_key=True),
    sqlite_with_rowid=False,  # 0027
)

# Games counted from a source that can change them afterwards (over-the-board games of events,
# 0026): the digest of what was counted (moves and result) and the ``explorer_games`` row that
# holds its pairs, so that a corrected game is taken back out before it is counted again.
explorer_counted = Table(
    "explorer_counted", metadata,
    Column("source", String(40), primary_key=True),
    Column("key", String(40), primary_key=True),
    Column("digest", String(64), nullable=False),
    Column("game", Integer, ForeignKey("explorer_games.id", ondelete="SET NULL")),
    Column("counted_at", BigInteger, nullable=False),
)

# Engine evaluations of explorer positions (0018), White's point of view: centipawns or
# moves to mate; written by ``randomchess explorer evaluate`` (explorer/evaluate.py).
explorer_evals = Table(
    "explorer_evals", metadata,
    Column("variant", String(16), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("position", String(16), primary_key=True),
    Column("cp", Integer),
    Column("mate", Integer),
    Column("depth", Integer, nullable=False),
    Column("engine", String(40), nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

# An import of a PGN file: how many of its games are counted (committed with their counts,
# so that an interrupted import resumes after the last committed game).
explorer_imports = Table(
    "explorer_imports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source", String(40), nullable=False),
    Column("path", Text, nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("games_read", Integer, nullable=False),
    Column("games_counted", Integer, nullable=False),
    Column("games_skipped", Integer, nullable=False),
    Column("finished", Boolean, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    UniqueConstraint("source", "path", "size", name="uq_explorer_imports_file"),
)

# ------------------------------------------------------------------ puzzles (0019)
# A puzzle (randomchess/puzzles): the position the solver sees, the solution as a
# space-separated UCI list (solver first, opponent's replies between), its themes
# (space-separated) and its own Glicko-2 rating, changed by every first attempt.
puzzles = Table(
    "puzzles", metadata,
    Column("id", String(16), primary_key=True),
    Column("variant", String(16), nullable=False),
    Column("fen", Text, nullable=False),
    Column("last_move", String(12)),
    Column("moves", Text, nullable=False),
    Column("themes", Text, nullable=False),
    Column("source", String(16), nullable=False),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("plays", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Index("ix_puzzles_variant_rating", "variant", "rating"),
)
# an account's puzzle rating per variant (Glicko-2, accounts/ratings.py)
puzzle_ratings = Table(
    "puzzle_ratings", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)
# one row per account and puzzle: only the first attempt is rated; a retry is practice
puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("puzzle_id", String(16), ForeignKey("puzzles.id", ondelete="CASCADE"),
           primary_key=True),
    Column("solved", Boolean, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

# ------------------------------------------------------------ tournaments (0002, 0005, 0007, 0010)
tournaments = Table(
    "tournaments", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(120), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("system", String(8), nullable=False),  # swiss | rr | drr
    Column("rounds", Integer, nullable=False),
    Column("time_control", String(64), nullable=False),
    Column("tiebreaks", String(120), nullable=False),  # comma-separated codes
    Column("setup_policy", String(8), nullable=False),  # round | board
    Column("mini_match", Boolean, nullable=False),
    Column("exclude_standard", Boolean, nullable=False),
    Column("bishops", String(8), nullable=False),
    Column("no_repeat", Boolean, nullable=False),
    Column("initial_colour", String(5), nullable=False),
    # The committed salt: never shown before the event is closed.
    Column("salt", LargeBinary(32), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("organiser_hash", String(64)),  # SHA-256 of the organiser secret (web)
    Column("status", String(12), nullable=False),  # registration | running | closed
    Column("version", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("closed_at", BigInteger),
    # Only setups whose evaluation lies within ±eval_band centipawns are drawn, from the
    # evaluation set whose digest is eval_digest (both NULL: no band; 0005).
    Column("eval_band", Integer),
    Column("eval_digest", String(64)),
    # FIDE's tie-break regulations followed: 2026 (in force from 1 March 2026) or 2023 (0007)
    Column("tiebreak_edition", String(8), nullable=False, server_default="2026"),
    # Setups from the salt alone ("salt") or from the salt and the digits drawn in the hall
    # at each round ("hall"); the organiser's exclusions and shortlist (comma-separated
    # numbers, NULL: none); the preparation window after a reveal, in minutes (0010).
    Column("setup_source", String(8), nullable=False, server_default="salt"),
    Column("excluded", Text),
    Column("shortlist", Text),
    Column("prep_minutes", Integer, nullable=False, server_default="0"),
    # The setup preview's countdown of the online games, seconds (0: none; NULL: the
    # speed's default; 0022, issue 32).
    Column("preview_s", Integer),
)
tournament_players = Table(
    "tournament_players", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("rating", Integer),
    Column("fide_id", String(12)),
    Column("federation", String(3)),
    Column("joined_round", Integer, nullable=False),
    Column("withdrawn_round", Integer),
)
tournament_byes = Table(
    "tournament_byes", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("kind", String(1), nullable=False),  # H | Z | F
)
tournament_boards = Table(
    "tournament_boards", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("white", Integer, nullable=False),
    Column("black", Integer),
    Column("result", String(8)),
    Column("bye", String(1)),
    Column("setup", Integer),
    Column("fen", Text, nullable=False),
    Column("game_id", String(24)),
    UniqueConstraint("tournament_id", "round", "white", name="uq_tournament_round_white"),
)
# One row per round revealed in the hall (0010): the primary key makes a second reveal of a
# round impossible, whoever sends it.
tournament_reveals = Table(
    "tournament_reveals", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("input", String(64), nullable=False),
    Column("at", BigInteger, nullable=False),
    Column("key", String(64), nullable=False),
)
tournament_log = Table(
    "tournament_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), nullable=False),
    Column("at", BigInteger, nullable=False),
    Column("action", String(24), nullable=False),
    Column("round", Integer),
    Column("board", Integer),
    Column("old", String(64)),
    Column("new", String(64)),
    Column("reason", Text),
    Index("ix_tournament_log_event", "tournament_id"),
)
# The accounts that run an event (0011): its organiser (the account that created it) and the
# co-arbiters the organiser added by name.  An event made without an account has no row and is
# run with its organiser secret alone.
tournament_staff = Table(
    "tournament_staff", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("role", String(10), nullable=False),  # organiser | arbiter
    Column("added_at", BigInteger, nullable=False),
    Index("ix_tournament_staff_user", "user_id"),
)

# A hall round whose online games the server opens itself when the preparation window ends
# (0017): ``state`` is the lock (waiting -> opening -> opened; a compare-and-set on it makes
# one process open them); ``games`` the games made at the reveal (0021): their ids and the
# SHA-256 of their seats' secrets, never the secrets (shown once, to the organiser).
tournament_openings = Table(
    "tournament_openings", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("state", String(8), nullable=False),  # waiting | opening | opened
    Column("due_at", BigInteger, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("claimed_at", BigInteger),
    Column("opened_at", BigInteger),
    Column("games", Text),  # JSON
)

# ------------------------------------------------------------------ over-the-board games (0012)
# A board's game typed from its scoresheet or imported from a PGN file (issue 31), checked
# move by move before it is stored; unfinished games keep the result ``*``.
tournament_games = Table(
    "tournament_games", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("moves", Text, nullable=False),  # UCI, space-separated
    Column("san", Text, nullable=False),  # English SAN, space-separated
    Column("clocks", Text, nullable=False),  # seconds left after each ply; "-" unknown
    Column("result", String(8), nullable=False),  # 1-0 | 0-1 | 1/2-1/2 | *
    Column("lang", String(2)),  # the scoresheet's language, when it had one
    Column("entered_at", BigInteger, nullable=False),
)

# ------------------------------------------------------------------ knock-out events (0009)
# The format of a knock-out event (tournaments.system = 'knockout'): match games, tie-break
# stages ("2:600+5;2:300+3"), the Armageddon ("bid:300+2" or "fixed:300,240"), one setup per
# match stage or per pair of games, seeding by rating or as entered.
knockout_formats = Table(
    "knockout_formats", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("games", Integer, nullable=False),
    Column("tiebreaks", String(600), nullable=False),
    Column("armageddon", String(140), nullable=False),
    Column("setups", String(8), nullable=False),  # match | pair
    Column("seeding", String(8), nullable=False),  # rating | entered
)
# Each game of a match, inserted when it is due (its colours, setup and clock known) and
# given its result later.
knockout_games = Table(
    "knockout_games", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("white", Integer, nullable=False),
    Column("black", Integer, nullable=False),
    Column("result", String(8)),
    Column("setup", Integer),
    Column("fen", Text, nullable=False),
    Column("time_control", String(64), nullable=False),
    Column("black_time_control", String(64)),  # when Black's clock differs (Armageddon)
    Column("game_id", String(24)),
)
# Armageddon bids: the time (seconds) each player accepts to take Black.
knockout_bids = Table(
    "knockout_bids", metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("seconds", Integer, nullable=False),
    Column("at", BigInteger, nullable=False),
)
