"""The verifiable setup of an online game (issue 32, docs/shuffler.md §10): test vectors that an
independent re-implementation with hashlib and hmac reproduces, and the refusals."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest

from randomchess.fairdraw import (
    GameSeedError,
    game_commitment,
    game_setup,
    parse_client_value,
    parse_server_seed,
    verify_game_setup,
)
from randomchess.startpos import SetupPool, chess960_rank

SEED = bytes(range(32))
CLIENT = "00112233445566778899aabbccddeeff"
OTHER = "ffeeddccbbaa99887766554433221100"
COMMIT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"

# The vectors of docs/shuffler.md §10: (variant, client value, number, back rank).
VECTORS = [
    ("chess960", CLIENT, 879, "QRKRNNBB"),
    ("chess960", OTHER, 275, "BNRKNRQB"),
    ("chess960", "", 658, "BRNKRBNQ"),
    ("mrc", CLIENT, 11820, "RBKNNMBRQ"),
    ("mrc", "", 7653, "MRQBBNKNR"),
    ("crc", CLIENT, 1638, "RKBRBNQN"),
]


def independent(seed: bytes, client: str, count: int, variant: str) -> int:
    """The recipe written from the documentation alone: hashlib and hmac."""
    tag = f"{variant}:any:-"
    message = b"randomchess-game-v1\0" + tag.encode() + b"\0" + client.encode()
    limit = 2**256 - 2**256 % count
    counter = 0
    while True:
        block = hmac.new(seed, message + b"\0" + str(counter).encode(), hashlib.sha256).digest()
        x = int.from_bytes(block, "big")
        if x < limit:
            return x % count
        counter += 1


def test_commitment_is_sha256_of_the_seed() -> None:
    assert game_commitment(SEED) == COMMIT == hashlib.sha256(SEED).hexdigest()


@pytest.mark.parametrize(("variant", "client", "number", "rank"), VECTORS)
def test_vectors_and_independent_recomputation(variant: str, client: str, number: int,
                                               rank: str) -> None:
    setup = game_setup(SEED, client, variant)
    assert (setup.number, setup.rank) == (number, rank)
    count = len(SetupPool(variant))
    assert independent(SEED, client, count, variant) == number  # pool = all numbers, in order


def test_independent_recomputation_for_many_seeds() -> None:
    for i in range(40):
        seed = hashlib.sha256(f"seed {i}".encode()).digest()
        client = hashlib.md5(f"client {i}".encode()).hexdigest()
        number = game_setup(seed, client, "chess960").number
        assert number == independent(seed, client, 960, "chess960")
        assert game_setup(seed, client, "chess960").rank == chess960_rank(number)


def test_every_input_matters() -> None:
    base = game_setup(SEED, CLIENT, "chess960").number
    changed = [game_setup(SEED, CLIENT[:-1] + "0", "chess960").number,
               game_setup(bytes(31) + b"\x01", CLIENT, "chess960").number]
    assert changed != [base, base]


def test_verify_checks_the_commitment() -> None:
    assert verify_game_setup(SEED, CLIENT, "chess960", COMMIT.upper()).number == 879
    with pytest.raises(GameSeedError) as e:
        verify_game_setup(bytes(32), CLIENT, "chess960", COMMIT)
    assert e.value.reason == "mismatch"
    with pytest.raises(GameSeedError) as e:
        verify_game_setup(SEED, CLIENT, "chess960", "abc")
    assert e.value.reason == "commitment"


@pytest.mark.parametrize("bad", ["0" * 31, "0" * 65, "G" * 32, "A" * 32, " " + CLIENT,
                                 CLIENT + "\n", "é" * 32])
def test_malformed_client_values_are_refused(bad: str) -> None:
    with pytest.raises(GameSeedError) as e:
        parse_client_value(bad)
    assert e.value.reason == "client"
    with pytest.raises(GameSeedError):
        game_setup(SEED, bad, "chess960")


@pytest.mark.parametrize("bad", ["", "00", "x" * 64, "0" * 63])
def test_malformed_server_seeds_are_refused(bad: str) -> None:
    with pytest.raises(GameSeedError) as e:
        parse_server_seed(bad)
    assert e.value.reason == "seed"
    assert parse_server_seed(SEED.hex().upper()) == SEED


def test_the_sketch_of_docs_shuffler_md_gives_the_vectors() -> None:
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs" / "shuffler.md"
    text = docs.read_text(encoding="utf-8")
    sketch = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    game = re.findall(r"```py\n(.*?)```", text, re.S)[0]  # §10's one more function
    scope: dict[str, Any] = {}
    exec(compile(sketch + game, str(docs), "exec"), scope)
    for variant, client, number, _rank in VECTORS:
        numbers, tag = scope["pool"](variant) if variant != "crc" else (
            list(range(len(SetupPool("crc")))), "crc:any:-")
        assert scope["game_number"](SEED, client, numbers, tag) == number


def _cli(*args: str) -> Any:
    from click.testing import CliRunner

    from randomchess.cli import main

    return CliRunner().invoke(main, ["draw", "verify-game", *args])


def test_cli_verify_game() -> None:
    r = _cli("--server-seed", SEED.hex(), "--client-value", CLIENT, "--commitment", COMMIT)
    assert r.exit_code == 0, r.output
    assert "879 QRKRNNBB" in r.output and "commitment matches" in r.output
    r = _cli("--server-seed", SEED.hex(), "--variant", "mrc")  # no client value sent
    assert r.exit_code == 0 and "7653 MRQBBNKNR" in r.output
    assert _cli("--server-seed", SEED.hex(), "--client-value", "-", "--variant", "mrc",
                "--format", "json").exit_code == 0


def test_cli_verify_game_refusals() -> None:
    altered = "7" + COMMIT[1:]
    r = _cli("--server-seed", SEED.hex(), "--client-value", CLIENT, "--commitment", altered)
    assert r.exit_code == 1 and "commitment mismatch" in r.output
    r = _cli("--server-seed", SEED.hex()[:-2], "--client-value", CLIENT)
    assert r.exit_code == 2 and "--server-seed" in r.output
    r = _cli("--server-seed", SEED.hex(), "--client-value", "XYZ")
    assert r.exit_code == 2 and "--client-value" in r.output
