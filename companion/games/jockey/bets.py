"""Jockey bets and the Ledger: stakes with credit, settlement, balances and marker pieces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.games.errors import N_, DataError, Refusal
from companion.games.jockey.deck import JockeyHorse, parse_horse

#: Every player's balance before the first race.
STARTING_BALANCE = 1000

#: A player whose balance is below this may still stake up to it (the credit).
CREDIT_LIMIT = 1000

#: Stakes are whole hundreds, at least one hundred on each staked horse.
STAKE_UNIT = 100


class BetKind(StrEnum):
    """The four bets of the betting slip."""

    WIN = "win"
    DOUBLE = "double"
    PLACE = "place"
    ORDER = "order"  # the finishing-order bet


#: How many horses and how many stakes each kind of bet names (the shapes of the bets).
BET_SHAPES: dict[BetKind, tuple[int, int]] = {
    BetKind.WIN: (1, 1),
    BetKind.DOUBLE: (2, 1),
    BetKind.PLACE: (1, 1),
    BetKind.ORDER: (2, 2),
}

#: Other spellings of a bet kind the betting slip or a log may use.
_KIND_ALIASES = {"finishing_order": "order", "finishing-order": "order"}

_SHAPE_SENTENCES: dict[BetKind, str] = {
    BetKind.WIN: N_("A win bet names one horse and one stake."),
    BetKind.DOUBLE: N_("A double names two horses and one stake."),
    BetKind.PLACE: N_("A place bet names one horse and one stake."),
    BetKind.ORDER: N_("A finishing order names two horses, a stake on each."),
}


@dataclass(frozen=True, slots=True)
class JockeyBet:
    """One player's bet for one race.

    ``horses`` holds one horse (win, place) or two (double; finishing order: 1st then 2nd).
    ``stakes`` holds one stake, or two for a finishing order (one per horse, same order).
    """

    kind: BetKind
    horses: tuple[JockeyHorse, ...]
    stakes: tuple[int, ...]

    @classmethod
    def win(cls, horse: str, stake: int) -> JockeyBet:
        """A win bet: ``horse`` passes the finish first."""
        return cls.parse(BetKind.WIN, [horse], [stake])

    @classmethod
    def double(cls, first: str, second: str, stake: int) -> JockeyBet:
        """A double bet: one of the two horses passes the finish first."""
        return cls.parse(BetKind.DOUBLE, [first, second], [stake])

    @classmethod
    def place(cls, horse: str, stake: int) -> JockeyBet:
        """A place bet: ``horse`` passes the finish first or second."""
        return cls.parse(BetKind.PLACE, [horse], [stake])

    @classmethod
    def order(cls, first: str, first_stake: int, second: str, second_stake: int) -> JockeyBet:
        """A finishing-order bet: ``first`` passes the finish first and ``second`` second."""
        return cls.parse(BetKind.ORDER, [first, second], [first_stake, second_stake])

    @classmethod
    def parse(cls, kind: str, horses: Sequence[str], stakes: Sequence[int]) -> JockeyBet:
        """Build a bet from the betting slip's kind, horses and stakes, and check its form.

        ``kind`` is ``win``, ``double``, ``place`` or ``order`` (``finishing_order`` too).

        Raises Refusal ``unknown_bet``, ``bet_incomplete``, ``unknown_horse``,
        ``horse_named_twice``, ``stake_under_minimum`` or ``stake_not_hundreds``.
        The limit depends on the balance: see ``Ledger.with_bet``.
        """
        word = str(kind).strip().lower().replace(" ", "_")
        try:
            bet_kind = BetKind(_KIND_ALIASES.get(word, word))
        except ValueError:
            raise Refusal("unknown_bet", "Bets: win, double, place or finishing order.") from None
        horse_count, stake_count = BET_SHAPES[bet_kind]
        if len(horses) != horse_count or len(stakes) != stake_count:
            raise Refusal("bet_incomplete", _SHAPE_SENTENCES[bet_kind])
        named = tuple(parse_horse(h) for h in horses)
        if len(set(named)) != len(named):
            raise Refusal("horse_named_twice", "Name two different horses.")
        for stake in stakes:
            if type(stake) is not int or stake < STAKE_UNIT:
                raise Refusal("stake_under_minimum", "Stake at least 100 on each horse.")
            if stake % STAKE_UNIT:
                raise Refusal("stake_not_hundreds", "Stakes go in hundreds: 100, 200, 300...")
        return cls(bet_kind, named, tuple(stakes))

    @property
    def total(self) -> int:
        """Return the whole amount at stake."""
        return sum(self.stakes)

    def text(self) -> str:
        """Describe the bet for the table: ``win red 500``, ``order red 400 blue 500``."""
        if self.kind is BetKind.ORDER:
            (first, second), (s1, s2) = self.horses, self.stakes
            return f"order {first} {s1} {second} {s2}"
        return f"{self.kind} {' '.join(self.horses)} {self.stakes[0]}"

    def to_data(self) -> dict[str, object]:
        """Return the bet as plain JSON-ready data."""
        return {
            "kind": str(self.kind),
            "horses": [str(h) for h in self.horses],
            "stakes": list(self.stakes),
        }

    @classmethod
    def from_data(cls, data: object) -> JockeyBet:
        """Rebuild a bet from ``to_data`` output. Raises DataError when it does not fit."""
        try:
            if not isinstance(data, Mapping):
                raise TypeError("a bet must be a mapping")
            horses, stakes = data["horses"], data["stakes"]
            if not isinstance(horses, list) or not isinstance(stakes, list):
                raise TypeError("horses and stakes must be lists")
            return cls.parse(str(data["kind"]), horses, stakes)
        except (KeyError, TypeError, Refusal) as error:
            raise DataError(f"saved bet: {error}") from None


def stake_limit(balance: int) -> int:
    """Return the most a player with ``balance`` may stake in one bet (credit included)."""
    return balance if balance >= CREDIT_LIMIT else CREDIT_LIMIT


def backs_to_win(bet: JockeyBet, horse: JockeyHorse) -> bool:
    """Tell whether ``bet`` is a win on ``horse`` or a finishing order with it first."""
    return bet.kind in (BetKind.WIN, BetKind.ORDER) and bet.horses[0] is horse


def payout(bet: JockeyBet, first: JockeyHorse, second: JockeyHorse, shared: bool) -> int:
    """Return the change to the bettor's balance once ``first`` and ``second`` have finished.

    ``shared`` tells whether another player backed this bet's first horse to win (a win
    bet on it, or a finishing order with it first): a shared win pays 2 times, not 3,
    and a shared finishing order 3 times, not 4.
    """
    stake = bet.stakes[0]
    if bet.kind is BetKind.WIN:
        return (2 if shared else 3) * stake if first is bet.horses[0] else -stake
    if bet.kind is BetKind.DOUBLE:
        return stake if first in bet.horses else -stake
    if bet.kind is BetKind.PLACE:
        return stake if bet.horses[0] in (first, second) else -stake
    (one, two), (s1, s2) = bet.horses, bet.stakes
    if first is one and second is two:
        return (3 if shared else 4) * (s1 + s2)
    if first is one:
        return (2 if shared else 3) * s1 - s2
    if second is two:
        return s2 - s1
    return -(s1 + s2)


@dataclass(frozen=True, slots=True)
class Markers:
    """Where a player's marker pieces go on the scoring table.

    For a balance of 0 or more: the ten-thousands (any number), then the thousands and
    hundreds digits. For a debt: the thousands of the debt (any number) in the -1000
    column and its hundreds digit in the -100 column; ``ten_thousands`` is then 0.
    """

    debt: bool
    ten_thousands: int
    thousands: int
    hundreds: int

    @classmethod
    def of(cls, balance: int) -> Markers:
        """Return the marker positions for ``balance`` (a multiple of 100)."""
        if balance >= 0:
            return cls(False, balance // 10_000, balance // 1000 % 10, balance // 100 % 10)
        owed = -balance
        return cls(True, 0, owed // 1000, owed // 100 % 10)

    def columns(self) -> tuple[tuple[str, int], ...]:
        """Return (column, square) pairs: ``10000``, ``1000``, ``100`` or ``-1000``, ``-100``."""
        if self.debt:
            return (("-1000", self.thousands), ("-100", self.hundreds))
        return (("10000", self.ten_thousands), ("1000", self.thousands), ("100", self.hundreds))


@dataclass(frozen=True, slots=True)
class Settlement:
    """One player's settled bet: what it paid (negative for a loss) and the new balance."""

    player: str
    bet: JockeyBet
    shared: bool
    change: int
    balance: int

    @property
    def markers(self) -> Markers:
        """Return where the player's markers go after this race."""
        return Markers.of(self.balance)

    def to_data(self) -> dict[str, object]:
        """Return the payout as plain JSON-ready data."""
        return {
            "player": self.player,
            "bet": self.bet.to_data(),
            "shared": self.shared,
            "change": self.change,
            "balance": self.balance,
        }

    @classmethod
    def from_data(cls, data: object) -> Settlement:
        """Rebuild a payout from ``to_data`` output. Raises DataError when it does not fit."""
        try:
            if not isinstance(data, Mapping):
                raise TypeError("a payout must be a mapping")
            change, balance = data["change"], data["balance"]
            if type(change) is not int or type(balance) is not int:
                raise TypeError("amounts must be whole numbers")
            shared = data["shared"] is True
            return cls(
                str(data["player"]), JockeyBet.from_data(data["bet"]), shared, change, balance
            )
        except (KeyError, TypeError) as error:
            raise DataError(f"saved payout: {error}") from None


@dataclass(frozen=True, slots=True)
class JockeyRaceResult:
    """A finished race: its number (1 to 3), the first two horses and every settled bet."""

    number: int
    first: JockeyHorse
    second: JockeyHorse
    payouts: tuple[Settlement, ...]

    def to_data(self) -> dict[str, object]:
        """Return the result as plain JSON-ready data."""
        return {
            "number": self.number,
            "first": str(self.first),
            "second": str(self.second),
            "payouts": [p.to_data() for p in self.payouts],
        }

    @classmethod
    def from_data(cls, data: object) -> JockeyRaceResult:
        """Rebuild a result from ``to_data`` output. Raises DataError when it does not fit."""
        try:
            if not isinstance(data, Mapping) or not isinstance(data["payouts"], list):
                raise TypeError("a race result must be a mapping with a list of payouts")
            number = data["number"]
            if type(number) is not int:
                raise TypeError("the race number must be a whole number")
            payouts = tuple(Settlement.from_data(p) for p in data["payouts"])
            return cls(number, JockeyHorse(data["first"]), JockeyHorse(data["second"]), payouts)
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(f"saved race result: {error}") from None


@dataclass(frozen=True, slots=True)
class JockeyStanding:
    """A player's place in the ranking; players with equal balances share a place."""

    place: int
    player: str
    balance: int


def rank(players: Sequence[str], balances: Sequence[int]) -> tuple[JockeyStanding, ...]:
    """Rank players by balance, highest first; equal balances share a place (1, 1, 3...).

    Players with equal balances keep their seating order.
    """
    ordered = sorted(zip(players, balances, strict=True), key=lambda pb: -pb[1])
    standings: list[JockeyStanding] = []
    for index, (player, balance) in enumerate(ordered):
        tied = standings and standings[-1].balance == balance
        place = standings[-1].place if tied else index + 1
        standings.append(JockeyStanding(place, player, balance))
    return tuple(standings)


@dataclass(frozen=True, slots=True)
class Ledger:
    """The betting book: each player's balance and sealed bet for the race being run.

    ``balances`` and ``bets`` follow the seating order of ``players``. A Ledger is a value:
    ``with_bet`` and ``settle`` return new ones.
    """

    players: tuple[str, ...]
    balances: tuple[int, ...]
    bets: tuple[JockeyBet | None, ...]

    @classmethod
    def opening(cls, players: Sequence[str]) -> Ledger:
        """Open the book: every player starts with 1000 and no bet."""
        return cls(tuple(players), (STARTING_BALANCE,) * len(players), (None,) * len(players))

    def balance(self, player: str) -> int:
        """Return the player's balance."""
        return self.balances[self.players.index(player)]

    def limit(self, player: str) -> int:
        """Return the most the player may stake in this race."""
        return stake_limit(self.balance(player))

    def has_bet(self, player: str) -> bool:
        """Tell whether the player's bet for this race is in."""
        return self.bets[self.players.index(player)] is not None

    def missing(self) -> tuple[str, ...]:
        """Return the players whose bet is not in yet, in seating order."""
        return tuple(p for p, b in zip(self.players, self.bets, strict=True) if b is None)

    def with_bet(self, player: str, bet: JockeyBet) -> Ledger:
        """Seal ``bet`` as the player's bet for this race.

        Raises Refusal ``already_bet`` or ``stake_over_limit``; the ledger is unchanged.
        """
        seat = self.players.index(player)
        if self.bets[seat] is not None:
            raise Refusal("already_bet", "You have already bet in this race.")
        limit = stake_limit(self.balances[seat])
        if bet.total > limit:
            raise Refusal(
                "stake_over_limit", "Total stake is over your limit of {limit}.", limit=limit
            )
        bets = (*self.bets[:seat], bet, *self.bets[seat + 1 :])
        return Ledger(self.players, self.balances, bets)

    def settle(
        self, number: int, first: JockeyHorse, second: JockeyHorse
    ) -> tuple[Ledger, JockeyRaceResult]:
        """Settle every bet of race ``number``; return the new book (no bets) and the result.

        Raises ValueError when a bet is missing (the first card needs every bet).
        """
        if None in self.bets:
            raise ValueError("every bet must be in before a race is settled")
        bets = tuple(b for b in self.bets if b is not None)
        backers: dict[JockeyHorse, int] = {}
        for bet in bets:
            if backs_to_win(bet, bet.horses[0]):
                backers[bet.horses[0]] = backers.get(bet.horses[0], 0) + 1
        payouts: list[Settlement] = []
        balances: list[int] = []
        for player, balance, bet in zip(self.players, self.balances, bets, strict=True):
            shared = backs_to_win(bet, bet.horses[0]) and backers[bet.horses[0]] > 1
            change = payout(bet, first, second, shared)
            balances.append(balance + change)
            payouts.append(Settlement(player, bet, shared, change, balance + change))
        book = Ledger(self.players, tuple(balances), (None,) * len(self.players))
        return book, JockeyRaceResult(number, first, second, tuple(payouts))
