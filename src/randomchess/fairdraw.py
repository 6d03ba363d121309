"""The setup of an online game that both players can verify (docs/shuffler.md §10, issue 32).

The server makes a secret 32-byte *server seed* when a seek (or challenge) is opened and shows
its *commitment* ``hex(SHA-256(server seed))``; the player who accepts sends a *client value*
(random hex digits from the browser).  The setup is the pool's element

    pool[uniform(server seed, "randomchess-game-v1" 0x00 tag 0x00 client value, len(pool))]

with the ``uniform`` and pool tags of the events' verifiable draw (:mod:`randomchess.startpos`),
over all the variant's numbered setups.  Once the game has started the server seed is
revealed, and anyone can recompute the setup and the commitment.  Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from randomchess.errors import RandomChessError
from randomchess.startpos import NumberedSetup, SetupPool, _message, _uniform_below

__all__ = [
    "CLIENT_MAX_DIGITS",
    "CLIENT_MIN_DIGITS",
    "GAME_DOMAIN",
    "SERVER_SEED_BYTES",
    "GameSeedError",
    "game_commitment",
    "game_pool",
    "game_setup",
    "new_server_seed",
    "parse_client_value",
    "parse_server_seed",
    "verify_game_setup",
]

SERVER_SEED_BYTES = 32
CLIENT_MIN_DIGITS = 32  # 128 bits from the browser's crypto.getRandomValues
CLIENT_MAX_DIGITS = 64
GAME_DOMAIN = b"randomchess-game-v1"
_CLIENT = re.compile(f"[0-9a-f]{{{CLIENT_MIN_DIGITS},{CLIENT_MAX_DIGITS}}}")


class GameSeedError(RandomChessError):
    """A server seed, client value or commitment that is malformed or does not match;
    ``reason`` names which: ``client``, ``seed``, ``commitment`` or ``mismatch``."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def new_server_seed() -> bytes:
    """A fresh secret server seed of 32 bytes from :mod:`secrets`."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def parse_server_seed(text: str) -> bytes:
    """The server seed written as 64 hexadecimal digits (either case)."""
    text = text.strip()
    if not re.fullmatch(f"[0-9a-fA-F]{{{2 * SERVER_SEED_BYTES}}}", text):
        raise GameSeedError(f"a server seed is {2 * SERVER_SEED_BYTES} hexadecimal digits, "
                            f"not {text!r}", "seed")
    return bytes.fromhex(text)


def parse_client_value(text: str) -> str:
    """The client value as it enters the derivation: 32-64 lower-case hexadecimal digits, or
    the empty string (no value sent: the server seed alone decides, docs/shuffler.md §10)."""
    if text == "" or _CLIENT.fullmatch(text):
        return text
    raise GameSeedError(f"a client value is {CLIENT_MIN_DIGITS}-{CLIENT_MAX_DIGITS} "
                        f"lower-case hexadecimal digits (0-9, a-f), not {text[:80]!r}",
                        "client")


def game_commitment(server_seed: bytes) -> str:
    """hex(SHA-256(server seed)), lower case."""
    if len(server_seed) != SERVER_SEED_BYTES:
        raise GameSeedError(f"a server seed is {SERVER_SEED_BYTES} bytes, not "
                            f"{len(server_seed)}", "seed")
    return hashlib.sha256(server_seed).hexdigest()


def game_pool(variant: str) -> SetupPool:
    """Every numbered setup of ``variant`` (no bishop filter, nothing excluded)."""
    return SetupPool(variant)


def game_setup(server_seed: bytes, client_value: str, variant: str) -> NumberedSetup:
    """The game's setup: pool[uniform(seed, "randomchess-game-v1" 0x00 tag 0x00 client)]."""
    game_commitment(server_seed)  # checks the length
    client = parse_client_value(client_value)
    pool = game_pool(variant)
    message = _message(GAME_DOMAIN, pool.tag, client)
    return pool.setup(_uniform_below(len(pool), server_seed, message))


def verify_game_setup(server_seed: bytes, client_value: str, variant: str,
                      commitment: str) -> NumberedSetup:
    """The game's setup, after checking that ``server_seed`` gives ``commitment``."""
    published = commitment.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{64}", published):
        raise GameSeedError(f"a commitment is 64 hexadecimal digits, not {commitment!r}",
                            "commitment")
    if not hmac.compare_digest(game_commitment(server_seed), published):
        raise GameSeedError("commitment mismatch: SHA-256 of this server seed is not the "
                            "published commitment (wrong or altered seed or commitment)",
                            "mismatch")
    return game_setup(server_seed, client_value, variant)
