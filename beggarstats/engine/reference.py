"""The reference engine: docs/RULES.md as plain, readable Python.

Slow on purpose. Every rule is one short method of `_Game`, named for the rule. The numba kernels
must agree with this module game for game (tests/engine/test_differential.py).
"""

from __future__ import annotations

from collections import deque

from ..game.cards import JOKER, format_deal
from ..game.results import GameResult, Trick

__all__ = ["play_hands", "trick_states"]


class _Game:
    """The state of one game in progress, and the rules that move it on."""

    def __init__(self, hands, rules, rng, trace):
        self.rules = rules
        self.rng = rng
        self.n = len(hands)
        self.deal = format_deal(hands)
        self.hands = [deque(h) for h in hands]
        self.in_game = [True] * self.n
        self.pile: list[int] = []
        self.cards = 0
        self.tricks = 0
        self.leader = 0
        self.over = False
        self.outcome = "win"
        self.winner = None
        self.out_groups: list[tuple[int, ...]] = []
        self.out_cards: list[int | None] = [None] * self.n
        self.min_cards = [len(h) for h in self.hands]
        self.shuffling = rules.shuffle_pile
        self.loop = None  # (start_tricks, start_cards, tricks, cards) once a state repeats
        # Exact loop detection: every trick-boundary state seen so far -> (tricks, cards) there.
        # Dict keys are compared in full, so two states never count as equal by hash alone.
        self.seen = {self.state(): (0, 0)} if rules.deterministic else None
        self.trace = [] if trace else None
        self.plays: list[tuple[int, int]] = []  # (seat, card) of the trick in progress
        self.trick_leader = 0

    # -- seats ---------------------------------------------------------------------------------
    def next_in_game(self, seat: int) -> int:
        """The next player still in the game after ``seat``, in the direction of play."""
        step = 1 if self.rules.direction == "cw" else -1
        s = seat
        for _ in range(self.n):
            s = (s + step) % self.n
            if self.in_game[s]:
                return s
        raise AssertionError("no player left in the game")  # internal: the game ends before this

    def players_left(self) -> int:
        return sum(self.in_game)

    def state(self):
        """The trick-boundary state: who leads, who is still in, every hand in order."""
        return (self.leader, tuple(self.in_game), tuple(tuple(h) for h in self.hands))

    # -- the rules -----------------------------------------------------------------------------
    def go_out(self, seats) -> None:
        """Players leave the game together (they share a finishing place)."""
        seats = tuple(seats)
        if not seats:
            return
        for s in seats:
            self.in_game[s] = False
            self.out_cards[s] = self.cards
        self.out_groups.append(seats)
        if self.players_left() == 1:
            self.finish(self.in_game.index(True))

    def finish(self, winner: int) -> None:
        """The game is won: the winner takes the pile (a trick if it holds any card)."""
        self.winner = winner
        self.over = True
        if self.pile:
            self.take_pile(winner, final=True)

    def play_card(self, seat: int) -> int:
        card = self.hands[seat].popleft()
        self.pile.append(card)
        self.plays.append((seat, card))
        self.cards += 1
        return card

    def take_pile(self, taker: int, final: bool = False, last_payer: int | None = None) -> None:
        """A trick: the taker puts the pile under their hand in the order it was played
        (shuffled first under the shuffle variants); then the next trick's leader is chosen."""
        if self.shuffling:
            self.rng.shuffle(self.pile)
        self.hands[taker].extend(self.pile)
        self.pile = []
        self.tricks += 1
        self.end_trick_record(taker)
        if final:
            return
        if self.out_at_trick_end():
            self.go_out(s for s in range(self.n) if self.in_game[s] and not self.hands[s])
        if not self.over:
            self.leader = self.next_leader(taker, last_payer)
            self.check_loop()

    def next_leader(self, taker: int, last_payer: int) -> int:
        """`leader`: the taker leads the next trick ('taker'), or the next player after the one
        who paid the trick's last card or ran out paying it ('next')."""
        if self.rules.leader == "next":
            return self.next_in_game(last_payer)
        return taker

    def end_trick_record(self, taker) -> None:
        for s in range(self.n):
            self.min_cards[s] = min(self.min_cards[s], len(self.hands[s]))
        if self.trace is not None:
            sizes = tuple(len(h) for h in self.hands)
            self.trace.append(Trick(self.trick_leader, tuple(self.plays), taker, sizes))
        self.plays = []

    def check_loop(self) -> None:
        """At a trick boundary of deterministic play: has this state been seen before?"""
        if self.seen is None:
            return
        state = self.state()
        if state not in self.seen:
            self.seen[state] = (self.tricks, self.cards)
            return
        start_tricks, start_cards = self.seen[state]
        self.loop = (start_tricks, start_cards, self.tricks - start_tricks, self.cards - start_cards)
        self.seen = None
        if self.rules.shuffle_on_loop:
            self.shuffling = True  # "if you see the same captures repeat, shuffle the pile"
        else:
            self.outcome = "loop"
            self.over = True

    def only_one_holds_cards(self) -> bool:
        return sum(1 for h in self.hands if h) == 1

    def sole_holder_wins(self) -> bool:
        """End convention `empty`: the game ends the moment only one player holds cards."""
        return self.rules.end == "empty"

    def check_empty_end(self) -> None:
        if self.sole_holder_wins() and not self.over and self.only_one_holds_cards():
            holder = next(s for s in range(self.n) if self.hands[s])
            self.go_out(s for s in range(self.n) if self.in_game[s] and s != holder)

    def cut_off(self) -> bool:
        """`max_cards`: the game stops once that many cards have been played."""
        return self.rules.max_cards is not None and self.cards >= self.rules.max_cards

    def check_cutoff(self) -> None:
        if not self.over and self.cut_off():
            self.outcome = "cutoff"
            self.over = True

    def demand(self, card: int, beggar_owed: bool) -> int:
        """What a card demands: its tribute. While a Beggar joker is being paid, penalty cards
        are plain."""
        return 0 if beggar_owed else card

    def owed_to_beggar(self, card: int) -> bool:
        """`joker_mode` 'beggar': the tribute a joker demands is owed to a Beggar joker."""
        return self.rules.joker_mode == "beggar" and card == JOKER

    def lapses(self) -> bool:
        """`exhausted_tribute`: a payer out of cards lets the rest of the tribute lapse and the
        claimant take the pile ('claimant'), or the next player owes the rest ('passes_on')."""
        return self.rules.exhausted_tribute == "claimant"

    def out_at_trick_end(self) -> bool:
        """End convention `trick`: when a trick is taken, every player with an empty hand is out."""
        return self.rules.end == "trick"

    def most_cards_winner(self) -> int | None:
        """`unfinished` 'most_cards': the one player holding most cards wins a loop or cut-off game."""
        sizes = [len(h) for h in self.hands]
        best = max(sizes)
        return sizes.index(best) if sizes.count(best) == 1 else None

    # -- one trick -----------------------------------------------------------------------------
    def play_trick(self) -> None:
        """Play from the lead until the pile is taken or the game is over."""
        self.trick_leader = turn = self.leader
        owed = 0          # cards still owed as tribute (0: no tribute in progress)
        claimant = None   # who played the last penalty card
        beggar = False    # the tribute in progress is owed to a Beggar joker
        while not self.over:
            if not self.hands[turn]:
                # Must play and cannot: out.
                self.go_out([turn])
                if self.over:
                    break
                if owed and self.lapses():
                    self.take_pile(claimant, last_payer=turn)   # the rest of the tribute lapses
                    break
                turn = self.next_in_game(turn)  # passes_on: the next player owes the rest
                continue
            card = self.play_card(turn)
            tribute = self.demand(card, beggar)
            if tribute:
                claimant, owed = turn, tribute
                beggar = self.owed_to_beggar(card)
                turn = self.next_in_game(turn)
            elif owed:
                owed -= 1
                if owed == 0:
                    self.take_pile(claimant, last_payer=turn)
                    self.check_empty_end()
                    self.check_cutoff()
                    break
            else:
                turn = self.next_in_game(turn)
            self.check_empty_end()
            self.check_cutoff()
        if self.over and self.plays and self.trace is not None:
            # a trick cut off unfinished
            self.trace.append(Trick(self.trick_leader, tuple(self.plays), None,
                                    tuple(len(h) for h in self.hands)))

    def play(self) -> None:
        self.check_empty_end()
        while not self.over:
            self.play_trick()
        if self.outcome != "win" and self.rules.unfinished == "most_cards":
            self.winner = self.most_cards_winner()

    # -- the record ----------------------------------------------------------------------------
    def places(self) -> tuple[int | None, ...]:
        place: list[int | None] = [None] * self.n
        remaining = self.n
        for group in self.out_groups:
            for s in group:
                place[s] = remaining - len(group) + 1
            remaining -= len(group)
        if self.winner is not None:
            place[self.winner] = 1
        return tuple(place)

    def result(self) -> GameResult:
        loop = self.loop or (None, None, None, None)
        return GameResult(
            deal=self.deal, outcome=self.outcome, winner=self.winner,
            cards=self.cards, tricks=self.tricks,
            loop_start_tricks=loop[0], loop_start_cards=loop[1], loop_tricks=loop[2], loop_cards=loop[3],
            out_order=tuple(self.out_groups), place=self.places(),
            out_cards=tuple(self.out_cards), min_cards=tuple(self.min_cards),
            final_hand_sizes=tuple(len(h) for h in self.hands),
            trace=tuple(self.trace) if self.trace is not None else None,
        )


def play_hands(hands, rules, *, rng=None, trace: bool = False) -> GameResult:
    """Play one deal under ``rules`` and return its `GameResult`.

    Parameters
    ----------
    hands : sequence of sequences of int
        One hand per seat, top card first, cards as tributes 0..5. Not validated here:
        `beggarstats.run.play` checks deals against the rules first.
    rules : Rules
    rng : GameStream or numpy.random.Generator, optional
        Needed only by the shuffle variants; a Generator shuffles with ``Generator.shuffle``.
    trace : bool
        Keep a `Trick` record of every trick.
    """
    if (rules.shuffle_pile or rules.shuffle_on_loop) and rng is None:
        raise ValueError("The shuffle variants need a random stream: pass `rng` (a numpy Generator or GameStream).")
    game = _Game(hands, rules, rng, trace)
    game.play()
    return game.result()


def trick_states(hands, rules, skip: int, count: int) -> tuple[list[tuple], bool]:
    """The trick-boundary states (`_Game.state`: leader, who is still in, every hand) after
    ``skip``, ``skip + 1``, ..., ``skip + count`` tricks of a deal, played without the loop check
    (so on through a cycle), and whether the game is over after them. No shuffle variants (they
    need a stream)."""
    game = _Game(hands, rules, None, False)
    game.seen = None  # no loop check: play on through the cycle
    game.check_empty_end()
    for _ in range(skip):
        game.play_trick()
    states = [game.state()]
    for _ in range(count):
        game.play_trick()
        states.append(game.state())
    return states, game.over
