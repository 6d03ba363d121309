"""``randomchess explorer import``: a PGN collection into the explorer, streaming, resumable.

The file is read one game at a time (plain, ``.bz2`` through the standard library, ``.zst``
through the ``zstandard`` package, BSD-3-Clause, the optional extra ``randomchess[zstd]``).
Counts are written in batches; each batch commits together with the import's mark (how many
games of the file are done), so an import stopped at any instant, ``kill -9`` included,
resumes after its last committed game and counts no game twice.  A game that cannot be read or
counted is reported (file, game number, reason) and skipped; a corrupt or truncated compressed
file stops the import with :class:`ExplorerError`, the batches committed before it kept."""

from __future__ import annotations

import bz2
import gc
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from randomchess.explorer.counts import (
    RESULTS,
    ExplorerError,
    GameInfo,
    Tally,
    elo,
    game_pairs,
    setup_number,
    speed_of,
)
from randomchess.explorer.reader import QuickReader
from randomchess.explorer.store import ExplorerStore
from randomchess.pgn import PgnGame, parse_chunk, read_chunks

BATCH = 2000  # games per transaction


@dataclass
class ImportReport:
    path: str
    source: str
    counted: int = 0  # in this run
    skipped: int = 0  # in this run
    resumed_after: int = 0  # games done by earlier runs
    already_done: bool = False


class _ZstdReader(io.RawIOBase):
    """A Zstandard stream, frame after frame, that fails at a cut frame: ``zstandard``'s own
    stream reader ends a truncated file silently, as if it were whole."""

    def __init__(self, raw: IO[bytes]) -> None:
        import zstandard

        self._new = zstandard.ZstdDecompressor().decompressobj
        self._raw = raw
        self._frame = self._new()
        self._started = False
        self._buffer = b""

    def readable(self) -> bool:
        return True

    def _fill(self) -> None:
        while not self._buffer:
            chunk = self._raw.read(1 << 16)
            if not chunk:
                if self._started and not self._frame.eof:
                    raise EOFError("the Zstandard data ends in the middle of a frame")
                return
            while chunk:
                if self._frame.eof:  # the next frame of a multi-frame file
                    self._frame = self._new()
                self._started = True
                self._buffer += self._frame.decompress(chunk)
                chunk = self._frame.unused_data if self._frame.eof else b""

    def readinto(self, b: Any) -> int:
        self._fill()
        n = min(len(b), len(self._buffer))
        b[:n] = self._buffer[:n]
        self._buffer = self._buffer[n:]
        return n


def _zstd_reader(raw: IO[bytes]) -> IO[bytes]:
    try:
        import zstandard  # noqa: F401
    except ImportError:
        raise ExplorerError("reading .zst files needs the zstandard package "
                            "(pip install 'randomchess[zstd]'); or decompress it first "
                            "(zstd -d FILE.pgn.zst)") from None
    return io.BufferedReader(_ZstdReader(raw))


def open_pgn(path: Path) -> tuple[io.TextIOWrapper, IO[bytes]]:
    """A text stream of the PGN at ``path`` and its raw file (whose ``tell()`` is the
    progress through the file on disk)."""
    raw = open(path, "rb")  # noqa: SIM115 - closed with the text stream
    name = path.name.lower()
    inner: IO[bytes] = raw
    if name.endswith(".bz2"):
        inner = bz2.BZ2File(raw)
    elif name.endswith(".zst"):
        inner = _zstd_reader(raw)
    return io.TextIOWrapper(inner, encoding="utf-8-sig", errors="replace"), raw


def _decode_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [OSError, EOFError]
    try:
        import zstandard
        errors.append(zstandard.ZstdError)
    except ImportError:
        pass
    return tuple(errors)


SkipReason = Literal["unreadable", "no_result", "not_numbered"]


def count_pgn_game(tally: Tally, game: PgnGame) -> tuple[SkipReason, str] | None:
    """Count ``game``; None, or why it was skipped (a reason code and the details)."""
    if game.error is not None:
        return "unreadable", str(game.error)
    result = game.headers.get("Result", game.result)
    if result not in RESULTS:
        result = game.result
    if result not in RESULTS:
        return "no_result", result
    try:
        number = setup_number(game.variant.key, game.start_fen)
    except ExplorerError as e:
        return "not_numbered", str(e)
    h = game.headers
    tally.add_pairs(game.variant.key, number, game_pairs(game.start_position(), game.mainline()),
                    result, speed_of(h.get("TimeControl")), elo(h.get("WhiteElo")),
                    elo(h.get("BlackElo")), GameInfo.from_headers(h))
    return None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while games are read and counted, run over the
    young objects once per batch instead (:func:`import_pgn`).  A batch allocates hundreds of
    thousands of small containers (moves, pairs, counts, rows) that live until its commit,
    almost none in a cycle; the collector, run every 700 allocations, went over them again and
    again (a fifth of the import's time, issue 33).  Reference counting frees them as
    before; the cycles made during a batch are freed by the collection after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


Progress = Callable[[int, int], None]  # (bytes of the file read, games done)
Skip = Callable[[int, SkipReason, str], None]  # (game number, reason, details)


def import_pgn(store: ExplorerStore, path: str | os.PathLike[str], source: str = "import",
               batch: int = BATCH, progress: Progress | None = None,
               skip: Skip | None = None) -> ImportReport:
    """Count the games of the PGN at ``path`` under ``source`` (resuming an earlier run)."""
    file = Path(path).resolve()
    import_id, done, finished = store.start_import(source, str(file), file.stat().st_size)
    report = ImportReport(str(file), source, resumed_after=done, already_done=finished)
    if finished:
        return report
    text, raw = open_pgn(file)
    state: dict[str, Any] = {"tally": Tally(), "read": 0, "skipped": 0, "number": done}

    def commit(last: bool = False) -> None:
        store.commit_batch(import_id, source, state["tally"], state["read"], state["skipped"],
                           finished=last)
        report.counted += state["tally"].games
        report.skipped += state["skipped"]
        state.update(tally=Tally(), read=0, skipped=0)
        gc.collect(1)
        if progress is not None:
            progress(raw.tell(), state["number"])

    quick = QuickReader()
    with text, _collector_paused():
        try:
            for lines, number, first_line, offset in read_chunks(text):
                if number <= done:
                    continue
                state["number"] = number
                state["read"] += 1
                read = quick.read(lines)
                if read is not None:
                    state["tally"].add_pairs(read.variant, read.number, read.pairs, read.result,
                                             read.speed, read.white, read.black, read.info)
                    why = None
                else:
                    game = parse_chunk(lines, number, first_line, offset, None)
                    why = count_pgn_game(state["tally"], game)
                if why is not None:
                    state["skipped"] += 1
                    if skip is not None:
                        skip(number, *why)
                if state["read"] >= batch:
                    commit()
        except _decode_errors() as e:
            raise ExplorerError(
                f"{file}: the compressed data is corrupt or cut short after game "
                f"{state['number'] - state['read']} ({e}); the games before it are kept, "
                "and the import resumes there") from None
        commit(last=True)
    return report
