"""The declared shapes of the knock-out routes' answers (issue 34), as answers.py does for
the Swiss and round-robin routes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class KnockoutGameOut(_Out):
    game: int
    label: str = Field(description="the PGN Round: '3.2' is round 3, game 2 of the match")
    white: int
    black: int
    result: str | None
    setup: int | None
    fen: str
    time_control: str
    black_time_control: str | None = Field(description="an Armageddon's Black clock")
    game_id: str | None = Field(None, description="the server game it is played as, once "
                                                  "opened online (/#/game/ID to watch)")


class KnockoutBidOut(_Out):
    player: int
    seconds: int


class KnockoutMatchOut(_Out):
    round: int
    match: int
    top: int | None = Field(description="the better seed; none: not known yet")
    bottom: int | None = Field(description="none: a bye (round 1) or not known yet")
    status: str = Field(description="waiting, bye, playing, bids (Armageddon bids awaited), "
                                    "decided")
    winner: int | None
    score_top: float
    score_bottom: float
    next_game: int | None
    games: list[KnockoutGameOut]
    bids: list[KnockoutBidOut] = Field(description="shown once both players have bid")
    bids_in: list[int] = Field(description="the players who have bid")


class KnockoutRoundOut(_Out):
    round: int
    open: bool
    matches: list[KnockoutMatchOut]


class KnockoutFormatOut(_Out):
    games: int
    time_control: str
    tiebreaks: list[str] = Field(description="GAMES:TIME_CONTROL, in order")
    armageddon: str = Field(description="bid:BASE or fixed:WHITE,BLACK")
    setups: str
    seeding: str


class BracketOut(_Out):
    id: str
    name: str
    status: str
    format: KnockoutFormatOut
    opened: int
    champion: int | None
    rounds: list[KnockoutRoundOut]


class BidMadeOut(_Out):
    round: int
    match: int
    player: int
    seconds: int


class MyBidOut(_Out):
    """A player's view of their match's Armageddon bids (issue 34): their own bid, who has
    bid, both bids once both are in, and the Armageddon's server game once it is online."""

    round: int
    match: int
    player: int = Field(description="the player the seat proved (their seed)")
    status: str = Field(description="the match's status (bids: bids awaited)")
    mine: int | None = Field(description="this player's bid in seconds, once made")
    bids_in: list[int] = Field(description="the players who have bid")
    bids: list[KnockoutBidOut] = Field(description="shown once both players have bid")
    base: int = Field(description="the base time in seconds: a bid is 0 to it")
    armageddon_game: str | None = Field(description="the Armageddon's server game, once online")
    colour: str | None = Field(description="this player's colour in the Armageddon, once known")


class MySeatOut(_Out):
    game_id: str
    color: str
    token: str
