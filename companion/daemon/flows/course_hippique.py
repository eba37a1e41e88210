"""Course hippique at the table: the croupier's scans, the max bet, sealed bets, the race.

Per race: the croupier scans the course cards one by one (a redeal is called when a suit
has 5 or more), dials the max bet (encoder, push), then each other player in seat order
after the croupier bets (a horse button for the suit, the encoder for the stake, push) or
passes (push with no horse). Then the croupier scans each turned card until a horse wins.

Who is asked comes from the session's offers, the same answer the phones read: who has bet
and who passed are both journaled, so a phone's bet or pass moves the panel on too, and a
restart asks exactly who was still to answer. A horse pressed is the bettor's own: it is
dropped as soon as the prompt moves on to someone else.

UI decisions:

- Horse buttons 1 to 4 are spades, hearts, diamonds and clubs, the order of the odds row.
- A bet being entered shows its stake (the knob needs it) but never its horse: "Horse *"
  once one is pressed. The sealed notice keeps to one row so the next bettor's rows stay.
- The max bet dial starts at 10 and then where the previous croupier left it, read from the
  journal (so a restart keeps it). A bettor's stake dial starts at that player's last stake
  this game, clamped to what is allowed now. A fast turn of the knob steps by 5, 10, 50.
- A five-of-a-suit course is announced with the refused tone and names the suit.
- A card scanned while bets are still open is refused by the session, naming who has still
  to bet (the same refusal a phone's card gets).
- Without a card reader, the croupier dials each card: a horse button for the suit, the
  knob for the rank (2 to king), push.
- The bets are revealed with the first card turned; on the race's bottom row each bet is
  "Ben ♥5", or, when they cannot all fit, the stakes on each horse ("Bets ♠12 ♥5 ♦0 ♣3").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from companion.daemon.flows.base import NOTICE_S, Context, Flash, Reply, notice
from companion.daemon.flows.cards import playing_card
from companion.daemon.flows.game import CardGameFlow
from companion.devices.base import RGB, Tone
from companion.games.cards import Rank, Suit
from companion.games.course_hippique import (
    CARDS_PER_SUIT,
    CourseHippiqueBoard,
    win_probabilities,
)
from companion.games.text import N_
from companion.render import course_hippique as render
from companion.render.language import _
from companion.render.leds import SUIT_COLOURS
from companion.render.memo import last_drawn
from companion.render.screen import Cue, Screen, StripWalk
from companion.render.text import SUIT_NAMES, card_text, named, sealed, suit
from companion.session.bindings.course_hippique import max_bet_start, stake_start
from companion.session.log import BetEntry, DealCard, PassEntry, SetMaxBet, TurnCard
from companion.session.view import View

HORSES = render.HORSES
#: The ranks a card dialled without a reader can have (the aces are the horses).
DIALLED_RANKS = tuple(rank for rank in Rank if rank is not Rank.ACE)
#: The highest max bet the dial goes to (more chips than a table holds).
MAX_BET_DIAL = 9999


@last_drawn
def race_facts(view: View, setback: bool = False) -> render.RaceFacts:
    """Read the public facts of the race from the session's view."""
    board = board_of(view)
    course = tuple(c.code for c in board.course if c)
    positions: Mapping[str, int] = {s.letter: at for s, at in board.positions.items()}
    finish = board.finish
    odds: Mapping[str, int | None] = {s.letter: o for s, o in board.odds.items()}
    result = board.results[-1] if view.phase in ("race_over", "game_over") else None
    payouts: tuple[render.RevealedBet, ...] = ()
    croupier_change = 0
    if result is not None:
        payouts = tuple(
            render.RevealedBet(b.player, b.horse.letter, b.stake, result.change(b.player))
            for b in result.bets
        )
        croupier_change = result.change(result.croupier)
    return render.RaceFacts(
        players=view.players,
        phase=view.phase,
        number=view.race,
        races=board.races,
        croupier=result.croupier if result else board.croupier,
        course_length=len(board.course) or 7,
        setback=setback,
        course=course,
        odds=odds,
        chances={} if setback else _chances(view.phase, board, course, positions, finish),
        max_bet=board.max_bet,
        bettors=tuple(view.sealed) or tuple(b.player for b in board.bets),
        bets=tuple(render.RevealedBet(b.player, b.horse.letter, b.stake) for b in board.bets),
        positions=positions,
        finish=finish,
        last_card=board.turned[-1].code if board.turned else None,
        pending_row=board.pending_row,
        winner=None if board.winner is None else board.winner.letter,
        balances=board.balances,
        payouts=payouts,
        croupier_change=croupier_change,
        ranking=tuple((r.place, r.player, r.chips) for r in board.ranking),
    )


def board_of(view: View) -> CourseHippiqueBoard:
    """Return the Course hippique board of ``view``; raises TypeError for another game's."""
    board = view.board
    if not isinstance(board, CourseHippiqueBoard):
        raise TypeError(f"not a Course hippique board: {type(board).__name__}")
    return board


def _chances(
    phase: str,
    board: CourseHippiqueBoard,
    course: tuple[str, ...],
    positions: Mapping[str, int],
    finish: int,
) -> dict[str, float]:
    """Each horse's exact chance of winning from here (the plain game; none before betting)."""
    if phase not in ("betting", "racing"):
        return {}
    seen = [*course, *(c.code for c in board.turned)]
    left = tuple(CARDS_PER_SUIT - sum(1 for c in seen if c.endswith(s.letter)) for s in Suit)
    need = tuple(finish - int(positions.get(s.letter, 0)) for s in Suit)
    return dict(_exact_chances(need, left))


@functools.lru_cache(maxsize=256)
def _exact_chances(need: tuple[int, ...], left: tuple[int, ...]) -> tuple[tuple[str, float], ...]:
    """Each horse's chance (by suit letter) when the horses need ``need`` more cards and
    ``left`` are unseen, suit by suit: worked out once per position of the race (every press
    of the race redraws its screen); none when the counts are impossible."""
    try:
        exact = win_probabilities(
            dict(zip(Suit, need, strict=True)), dict(zip(Suit, left, strict=True))
        )
    except ValueError:
        return ()
    return tuple((s.letter, float(p)) for s, p in exact.items())


class CourseHippiqueFlow(CardGameFlow):
    """Turn the croupier's scans, the horse buttons, the encoder and push into the game."""

    NOT_OUR_CARD = N_("Not a playing card: scan a card of the 52-card deck.")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.layout = ctx.layouts.lanes("course_hippique")
        self.setback = self.table.start.options.get("setback") is not None
        #: The croupier's max bet dial and the race it is dialled for, and the bet being
        #: entered (horse, stake, whose stake the dial holds in which race): a dial starts
        #: afresh (``max_bet_start``, ``stake_start``) for another race or bettor.
        self.max_bet, self.max_bet_of = 0, 0
        self.horse: str | None = None
        self.stake = 1
        self.stake_of: tuple[str, int] | None = None

    # -- whose bet ---------------------------------------------------------------------------

    def _bettor(self, view: View) -> str | None:
        """The player the table asks for a bet now (the first still to bet or pass), or None."""
        if view.phase != "betting":
            return None
        asked = self.ctx.offers().asked
        return asked if asked is not None and self.ctx.offers().takes("bet", asked) else None

    def _entry(self, view: View) -> render.StakeDraft | None:
        if view.phase == "betting" and board_of(view).max_bet is None:
            if self.max_bet_of != view.race:
                self.max_bet, self.max_bet_of = max_bet_start(board_of(view)), view.race
            return render.StakeDraft(view.turn or "", "max_bet", self.max_bet)
        bettor = self._bettor(view)
        offer = self.ctx.offers().find("bet", bettor) if bettor is not None else None
        if bettor is None or offer is None:
            return None
        if self.stake_of != (bettor, view.race):  # a new prompt: nothing chosen for it yet
            self.horse, self.stake = None, stake_start(board_of(view), bettor)
            self.stake_of = (bettor, view.race)
        self.stake = max(offer.least, min(self.stake, offer.most))
        return render.StakeDraft(bettor, "bet", self.stake, self.horse is not None, offer.most)

    # -- inputs ----------------------------------------------------------------------------

    @property
    def button_horses(self) -> tuple[str, ...]:
        """Spades, hearts, diamonds and clubs."""
        return HORSES

    def card(self, name: str) -> str | None:
        """Return the code of the playing card the reader named ``name``."""
        return playing_card(name)

    def play(self, view: View, card: str) -> Reply:
        """Deal a course card, or turn a card of the race (the session says when it may)."""
        if view.phase in ("dealing", "redeal"):
            return self._deal(card, view)
        return self._turn_card(card, view)

    def _deal(self, code: str, view: View) -> Reply:
        outcome, reply = self.ctx.submit(DealCard(code, view.turn))
        if not outcome.accepted:
            return reply
        if outcome.view.phase == "redeal":
            course = [c.code for c in board_of(outcome.view).course if c]
            full = max(HORSES, key=lambda h: sum(1 for c in course if c.endswith(h)))
            count = sum(1 for c in course if c.endswith(full))
            said = _("Redeal: {count} {suit} in the course.")
            return notice(said.format(count=count, suit=_(SUIT_NAMES[full])), tone=Tone.REFUSED)
        if outcome.view.phase == "betting":
            return notice(_("Course dealt."))
        return Reply([Cue(tone=Tone.ACCEPTED)])

    def _turn_card(self, code: str, view: View) -> Reply:
        before = {s.letter: at for s, at in board_of(view).positions.items()}
        outcome, reply = self.ctx.submit(TurnCard(code, view.turn))
        if not outcome.accepted:
            return reply
        board = board_of(outcome.view)
        after = {s.letter: at for s, at in board.positions.items()}
        cues: list[Cue] = []
        for horse in HORSES:
            start, end = int(before.get(horse, 0)), int(after.get(horse, 0))
            if start != end:
                path = render.lane_path(self.layout, horse, start, end, board.finish)
                if path:
                    cues.append(Cue(move=StripWalk(path, SUIT_COLOURS[horse])))
        winner = None if board.winner is None else board.winner.letter
        self.page = 0
        if winner:
            cues.insert(0, Cue(tone=Tone.FINISH))
            name = _(SUIT_NAMES[winner])
            said = _("{suit} {name} win!").format(suit=suit(winner), name=name)
            oled = (_("{winner} wins").format(winner=suit(winner)),)
            return Reply(cues, Flash.sentence(said, NOTICE_S, oled))
        cues.insert(0, Cue(tone=Tone.ACCEPTED))
        return Reply(cues)

    def on_turn(self, view: View, steps: int) -> Reply:
        """Dial the max bet, or the stake of the bet being entered."""
        entry = self._entry(view)
        if entry is None:
            return Reply()
        if entry.what == "max_bet":
            self.max_bet = self.knob.dial(self.max_bet, steps, 1, MAX_BET_DIAL)
        else:
            self.stake = self.knob.dial(self.stake, steps, 1, entry.limit)
        return Reply()

    def on_horse(self, view: View, horse: str) -> Reply:
        """Choose the horse of the bet being entered."""
        entry = self._entry(view)
        if entry is None or entry.what != "bet":
            return Reply()
        self.horse = horse
        return Reply([Cue(tone=Tone.ACCEPTED)])

    def race_started(self, view: View) -> Reply:
        """Name the croupier of the new race."""
        said = _("{croupier} deals race {number}.")
        return notice(said.format(croupier=board_of(view).croupier, number=view.race))

    def on_push(self, view: View) -> Reply:
        """Set the max bet, seal the bet being entered, or pass."""
        entry = self._entry(view)
        if entry is None:
            return Reply()
        if entry.what == "max_bet":
            outcome, reply = self.ctx.submit(SetMaxBet(self.max_bet, view.turn))
            said = _("Max bet {amount}.").format(amount=self.max_bet)
            return notice(said) if outcome.accepted else reply
        if self.horse is None:
            outcome, reply = self.ctx.submit(PassEntry(entry.player))
            if outcome.accepted:
                return notice(named(entry.player, _(": no bet.")), tone=None)
            return reply
        outcome, reply = self.ctx.submit(BetEntry(entry.player, self.horse, self.stake))
        self.horse, self.stake_of = None, None
        if outcome.accepted:
            return notice(sealed(entry.player))
        return reply

    def take_back_step(self) -> bool:
        """Drop the horse chosen for the bet being entered."""
        if self.horse is not None:
            self.horse = None
            return True
        return False

    # -- dialling a card (no card reader) ----------------------------------------------------

    def wants_card(self, view: View) -> bool:
        """A course card to deal, or a card to turn once every bet is in."""
        offers = self.ctx.offers()
        return any(offers.takes(kind) for kind in ("deal_card", "turn_card"))

    def group_names(self) -> list[str]:
        """The suits, spades first: the horse buttons' order."""
        return [suit(h) for h in HORSES]

    def card_groups(self, view: View) -> list[list[tuple[str, str]]]:
        """For each suit, its cards from 2 to king (the aces are the horses)."""
        return [
            [(f"{rank.letter}{h}", card_text(f"{rank.letter}{h}")) for rank in DIALLED_RANKS]
            for h in HORSES
        ]

    # -- picture ---------------------------------------------------------------------------

    def end_pages(self, view: View) -> list[list[str]]:
        """The game's pages once it is over (the winner, the ranking, the last race)."""
        return render.end_pages(race_facts(view, self.setback))

    def screen(self) -> Screen:
        """Return the picture of the race as it stands."""
        view = self.ctx.view()
        facts = race_facts(view, self.setback)
        shown = render.screen(facts, self._entry(view), self.layout, self.page, self.dialling(view))
        return self.dialled(view, shown)

    def leds(self) -> tuple[RGB, ...]:
        """Return the lanes as ``screen()`` draws them (the same drawing, kept)."""
        return render.leds(race_facts(self.ctx.view(), self.setback), self.layout)


#: The table flow of this game, found by the controller through the game's kind.
FLOW = CourseHippiqueFlow
