"""Rules of the heap games of SPEC §5: Bachet's game and Nim, normal play or misère.

* **Bachet's game**: one heap (100 pebbles in the document); the players take
  turns removing 1..k pebbles (k = 10 in the document). Grundy value of a heap
  of n: ``n mod (k + 1)``, so the multiples of k + 1 are lost for the player to
  move.
* **Nim**: several heaps; a move removes any number ≥ 1 of pebbles from one
  heap. A heap of n has Grundy value n, and a position (a sum of heaps) the
  nim-sum (XOR, "binary addition without carry") of its heaps' values.

Normal play: whoever takes the last pebble wins (the player who cannot move
loses). Misère: whoever takes the last pebble *loses*; see :meth:`HeapState.value`
for the rules used there.

A move is ``(heap_index, take)``. No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, reduce
from operator import xor

from engine.core.i18n import N_, Phrase, _, ngettext
from engine.model.rules import IllegalMove

KINDS = ("bachet", "nim")
MAX_HEAP = 1000
MAX_HEAPS = 8
MAX_TAKE = 100
DEFAULT_BACHET_HEAP = 100
DEFAULT_BACHET_TAKE = 10
DEFAULT_NIM_HEAPS = (3, 5, 7)
# The exact remoteness search visits the sorted multisets of heap sizes below
# the position (only the value-0 successors of a won one); it is run when
# (an upper bound on) their count times the moves per position is at most this,
# a fraction of a second in the worst case. Bigger positions get a bound.
EXACT_REMOTENESS_WORK = 400_000

HeapMove = tuple[int, int]


def _is_int(x: object) -> bool:
    """A real int (bool is an int to Python, but not a heap size)."""
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True)
class HeapConfig:
    """Which heap game: ``kind`` "bachet" (one heap, take 1..max_take) or "nim".

    ``heaps`` are the starting sizes (0..1000 each, 1 to 8 heaps; Bachet: exactly
    one). ``max_take`` is Bachet's k (1..100, None means the document's 10);
    Nim has no limit, so it must be None there. ``misere``: the player who takes
    the last pebble loses.
    """

    kind: str
    heaps: tuple[int, ...]
    max_take: int | None = None
    misere: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be 'bachet' or 'nim', got {self.kind!r}")
        if isinstance(self.heaps, list):
            object.__setattr__(self, "heaps", tuple(self.heaps))
        if not isinstance(self.heaps, tuple) or not all(_is_int(h) for h in self.heaps):
            raise ValueError(f"heaps must be a tuple of integers, got {self.heaps!r}")
        if not 1 <= len(self.heaps) <= MAX_HEAPS:
            raise ValueError(f"1 to {MAX_HEAPS} heaps, got {len(self.heaps)}")
        if any(not 0 <= h <= MAX_HEAP for h in self.heaps):
            raise ValueError(f"heap sizes must be 0..{MAX_HEAP}, got {self.heaps}")
        if not isinstance(self.misere, bool):
            raise ValueError(f"misere must be True or False, got {self.misere!r}")
        if self.kind == "bachet":
            if len(self.heaps) != 1:
                raise ValueError(f"Bachet's game has exactly one heap, got {len(self.heaps)}")
            if self.max_take is None:
                # Normalised so equal games compare equal and k is always an int.
                object.__setattr__(self, "max_take", DEFAULT_BACHET_TAKE)
            if not _is_int(self.max_take) or not 1 <= self.max_take <= MAX_TAKE:
                raise ValueError(f"Bachet's k (max_take) must be 1..{MAX_TAKE}, "
                                 f"got {self.max_take!r}")
        elif self.max_take is not None:
            raise ValueError("Nim takes any number from a heap: max_take must be None "
                             "(use kind='bachet' for a limit)")

    @property
    def limit(self) -> int:
        """The most pebbles one move may take (Nim: the largest heap size allowed)."""
        return self.max_take if self.max_take is not None else MAX_HEAP

    def label(self) -> str:
        """Human name, e.g. ``Bachet 100, take 1–10`` or ``Nim 3, 5, 7 (misère)``, in the
        current language."""
        suffix = " (misère)" if self.misere else ""
        if self.kind == "bachet":
            return _("Bachet {count}, take 1–{most}").format(
                count=self.heaps[0], most=self.max_take) + suffix
        return _("Nim {heaps}").format(heaps=", ".join(map(str, self.heaps))) + suffix


BACHET_DEFAULT = HeapConfig("bachet", (DEFAULT_BACHET_HEAP,), DEFAULT_BACHET_TAKE)
NIM_DEFAULT = HeapConfig("nim", DEFAULT_NIM_HEAPS)


def heap_grundy(config: HeapConfig, n: int) -> int:
    """Normal-play Grundy value of one heap of ``n``: Nim n, Bachet n mod (k + 1).

    (Bachet: heaps 0..k reach every smaller size, so g(n) = n there; k + 1 reaches
    exactly 1..k, so its mex is 0, and the pattern repeats with period k + 1.)
    """
    if not _is_int(n) or n < 0:
        raise ValueError(f"a heap size is an integer ≥ 0, got {n!r}")
    if config.max_take is None:
        return n
    return n % (config.max_take + 1)


def _misere_lost(config: HeapConfig, heaps: tuple[int, ...]) -> bool:
    """Whether the player to move loses the misère game on ``heaps``."""
    if config.max_take is not None:
        # One heap, take 1..k, last pebble loses: you want to leave exactly 1
        # (mod k + 1), so n ≡ 1 (mod k + 1) is lost; n = 0 means the opponent
        # took the last pebble, a win for the player to move.
        return sum(heaps) % (config.max_take + 1) == 1
    if all(h <= 1 for h in heaps):
        # Only 0/1 heaps: the moves are forced; the mover loses iff the count of
        # 1-heaps is odd (they will take the last one).
        return sum(heaps) % 2 == 1
    # A heap of 2 or more: exactly the normal-play losers lose (Bouton).
    return reduce(xor, heaps, 0) == 0


@dataclass(frozen=True)
class HeapState:
    """A position: the heap sizes and who moves. Build the start with :meth:`start`.

    Implements the engine's GameState and the impartial ImpartialState protocol.
    """

    config: HeapConfig
    heaps: tuple[int, ...]
    to_move: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.heaps, list):
            object.__setattr__(self, "heaps", tuple(self.heaps))
        if len(self.heaps) != len(self.config.heaps):
            raise ValueError(f"{len(self.config.heaps)} heap(s) expected, got {len(self.heaps)}")
        if not all(_is_int(h) and 0 <= h <= MAX_HEAP for h in self.heaps):
            raise ValueError(f"heap sizes must be integers 0..{MAX_HEAP}, got {self.heaps!r}")
        if self.to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {self.to_move!r}")

    @classmethod
    def start(cls, config: HeapConfig = NIM_DEFAULT) -> HeapState:
        """The opening position of ``config`` with player 0 to move."""
        return cls(config, config.heaps)

    # --- the engine's rules interface -------------------------------------

    @property
    def num_players(self) -> int:
        """Two players."""
        return 2

    def current_player(self) -> int:
        """Index of the player to move (0 moves first)."""
        return self.to_move

    def legal_moves(self) -> list[HeapMove]:
        """Every (heap_index, take), heap by heap, smallest take first."""
        limit = self.config.limit
        return [(i, t) for i, h in enumerate(self.heaps) for t in range(1, min(h, limit) + 1)]

    def _check_move(self, move: object) -> HeapMove:
        """The move as a pair of ints, or IllegalMove."""
        if (not isinstance(move, tuple) or len(move) != 2
                or not all(_is_int(x) for x in move)):
            raise IllegalMove(f"a move is (heap_index, take), got {move!r}")
        if self.is_terminal():
            raise IllegalMove("the game is over: no pebbles left")
        index, take = move
        if not 0 <= index < len(self.heaps):
            raise IllegalMove(f"no heap {index}; there are {len(self.heaps)}")
        most = min(self.heaps[index], self.config.limit)
        if most == 0:
            raise IllegalMove(f"heap {index} is empty")
        if not 1 <= take <= most:
            raise IllegalMove(f"from heap {index} take 1..{most}, not {take}")
        return index, take

    def play(self, move: HeapMove) -> HeapState:
        """Take ``take`` pebbles from heap ``heap_index``; IllegalMove unless allowed."""
        index, take = self._check_move(move)
        heaps = self.heaps[:index] + (self.heaps[index] - take,) + self.heaps[index + 1:]
        return HeapState(self.config, heaps, 1 - self.to_move)

    def is_terminal(self) -> bool:
        """Over when every heap is empty."""
        return not any(self.heaps)

    def returns(self) -> tuple[float, ...]:
        """(0, 0) while unfinished. At the end the player to move has lost in
        normal play (the opponent took the last pebble) and won in misère."""
        if not self.is_terminal():
            return (0.0, 0.0)
        loser = self.to_move if not self.config.misere else 1 - self.to_move
        return tuple(-1.0 if p == loser else 1.0 for p in range(2))

    # --- impartial theory ----------------------------------------------------

    def heap_values(self) -> tuple[int, ...]:
        """Each heap's normal-play Grundy value, in heap order."""
        return tuple(heap_grundy(self.config, h) for h in self.heaps)

    def value(self) -> int:
        """Normal play: the Grundy value, the XOR of the heaps' values. Misère: 0 or 1.

        Misère positions have no Grundy value of their own, so the value is 0
        when the player to move loses and 1 when they win:

        * misère Nim (Bouton): while some heap has 2 or more pebbles, the
          position is lost exactly when its nim-sum is 0, as in normal play;
          with only heaps of 0 or 1 it is lost when the number of 1-heaps is
          odd. So: play as in normal Nim, except when your move would leave
          only heaps of size ≤ 1 — then leave an ODD number of 1-heaps;
        * misère Bachet (one heap, take 1..k): lost exactly when
          n mod (k + 1) = 1 — leave one more than a multiple of k + 1.
        """
        if self.config.misere:
            return 0 if _misere_lost(self.config, self.heaps) else 1
        return reduce(xor, self.heap_values(), 0)

    def nimber(self) -> int | None:
        """Normal play: the Grundy value; misère: None (a misère position has no nimber of
        its own, and :meth:`value`'s 0 or 1 is an outcome, not one)."""
        if self.config.misere:
            return None
        return reduce(xor, self.heap_values(), 0)

    def move_value(self, move: HeapMove) -> int:
        """The value after ``move`` (checked like :meth:`play`)."""
        return self.play(move).value()

    def winning_moves(self) -> list[HeapMove]:
        """The moves to a position of value 0 (none when the player to move loses)."""
        if self.value() == 0:
            return []
        return [m for m in self.legal_moves() if self.move_value(m) == 0]

    def remoteness(self) -> int:
        """Moves to the end when the winner hurries and the loser stalls (Smith's remoteness).

        Exact (a memoised search over sorted heap sizes, see
        :func:`heap_remoteness`) whenever that search is small, which covers
        Bachet up to 1000 pebbles and the Nim presets; otherwise an upper bound:
        every move removes a pebble, so no game lasts longer than the pebbles
        left, and the bound is the largest such number of the right parity
        (the winner moves last, so wins are odd and losses even in normal play,
        the other way round in misère). Only used to rank moves of equal outcome.
        """
        exact = heap_remoteness(self.config, self.heaps)
        if exact is not None:
            return exact
        return remoteness_bound(self.config, self.heaps, self.value() == 0)

    def remoteness_is_exact(self) -> bool:
        """Whether :meth:`remoteness` is exact here (else it is an upper bound)."""
        return heap_remoteness(self.config, self.heaps) is not None

    def value_explained(self) -> str:
        """The status line's arithmetic, e.g. ``3 ⊕ 5 ⊕ 7 = 1: the player to move wins``."""
        cfg = self.config
        lost = self.value() == 0
        if self.is_terminal():
            if cfg.misere:
                return _("no pebbles left: the opponent took the last one, so the player to "
                         "move wins")
            return _("no pebbles left: the player to move has lost")
        if cfg.max_take is not None:
            n, m = self.heaps[0], cfg.max_take + 1
            if cfg.misere:
                verdict = (_("the player to move loses (every move leaves a remainder other "
                             "than 1)") if lost
                           else _("the player to move wins (leave 1 more than a multiple of "
                                  "{m})").format(m=m))
                return _("misère, {n} mod {m} = {rest}: {verdict}").format(
                    n=n, m=m, rest=n % m, verdict=verdict)
            verdict = (_("the player to move loses (multiples of {m} lose)").format(m=m) if lost
                       else _("the player to move wins (take {take} to leave a multiple of "
                              "{m})").format(take=n % m, m=m))
            return _("{n} mod {m} = {rest}: {verdict}").format(n=n, m=m, rest=n % m,
                                                                verdict=verdict)
        nim_sum = " ⊕ ".join(map(str, self.heaps)) + f" = {reduce(xor, self.heaps, 0)}"
        if len(self.heaps) == 1:
            nim_sum = _("value {value}").format(value=self.heaps[0])
        if not cfg.misere:
            verdict = (_("the player to move loses (every move leaves a non-zero nim-sum)")
                       if lost else _("the player to move wins (move to make the nim-sum 0)"))
            return f"{nim_sum}: {verdict}"
        ones = sum(1 for h in self.heaps if h == 1)
        if all(h <= 1 for h in self.heaps):
            parity = _("odd") if ones % 2 else _("even")
            verdict = (_("the player to move loses (they will take the last pebble)") if lost
                       else _("the player to move wins (take a 1 to leave an odd number)"))
            return ngettext("misère, only heaps of 0 or 1: {ones} one-pebble heap, {parity}: "
                            "{verdict}",
                            "misère, only heaps of 0 or 1: {ones} one-pebble heaps, {parity}: "
                            "{verdict}", ones).format(ones=ones, parity=parity, verdict=verdict)
        verdict = (_("the player to move loses") if lost else
                   _("the player to move wins (but when only heaps ≤ 1 would remain, "
                     "leave an odd number of 1s)"))
        return _("misère, a heap has 2 or more, so as in Nim: {sum}: {verdict}").format(
            sum=nim_sum, verdict=verdict)


# --- remoteness ----------------------------------------------------------------


def _canonical(heaps: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The heap sizes that matter for the outcome: non-empty ones, sorted."""
    return tuple(sorted(h for h in heaps if h))


def _multisets_below(key: tuple[int, ...]) -> int:
    """How many sorted tuples lie elementwise below ``key`` (sorted): the search's size.

    Counts non-decreasing sequences a_1 ≤ … ≤ a_m with a_i ≤ key_i (0 allowed),
    by dynamic programming over the positions.
    """
    if not key:
        return 1
    top = key[-1]
    # ways[v]: sequences so far whose last element is v.
    ways = [1 if v <= key[0] else 0 for v in range(top + 1)]
    for bound in key[1:]:
        running, new = 0, [0] * (top + 1)
        for v in range(top + 1):
            running += ways[v]
            new[v] = running if v <= bound else 0
        ways = new
    return sum(ways)


@lru_cache(maxsize=16)
def _remoteness_memo(max_take: int | None, misere: bool) -> dict[tuple[int, ...], int]:
    """Exact remoteness of canonical positions of one rule set, filled on demand."""
    return {}


def heap_remoteness(config: HeapConfig, heaps: tuple[int, ...] | list[int]) -> int | None:
    """Exact remoteness of ``heaps`` under ``config``'s rules, or None when too big to search.

    A lost position scores 1 + the largest remoteness of its successors, a won
    one 1 + the smallest over its lost successors; the end scores 0. The
    outcome of each successor comes from :meth:`HeapState.value`'s rules, so a
    won position only looks at its lost successors. Memoised on the sorted
    non-empty heap sizes (the order of heaps does not matter).
    """
    key = _canonical(heaps)
    if config.max_take is None and len(key) == 1:
        # One Nim heap: take it all (normal), or all but one (misère; a single
        # pebble is lost in 1). The search would need no more, but its size
        # estimate below would refuse a big heap.
        return 1 if not config.misere or key[0] == 1 else 2
    memo = _remoteness_memo(config.max_take, config.misere)
    if key in memo:
        return memo[key]
    moves_per_position = sum(min(h, config.limit) for h in key)
    if _multisets_below(key) * max(1, moves_per_position) > EXACT_REMOTENESS_WORK:
        return None
    if len(memo) > 4 * EXACT_REMOTENESS_WORK:
        memo.clear()  # bound the memory of a long session

    def lost(ms: tuple[int, ...]) -> bool:
        if config.misere:
            return _misere_lost(config, ms)
        return reduce(xor, (heap_grundy(config, h) for h in ms), 0) == 0

    def children(ms: tuple[int, ...]) -> set[tuple[int, ...]]:
        out = set()
        for i, h in enumerate(ms):
            if i and ms[i - 1] == h:
                continue  # equal heaps give the same successors
            rest = ms[:i] + ms[i + 1:]
            for t in range(1, min(h, config.limit) + 1):
                out.add(_canonical(rest + (h - t,)))
        return out

    # Iterative post-order search: a game can be 1000 moves deep.
    stack = [key]
    while stack:
        ms = stack[-1]
        if ms in memo:
            stack.pop()
            continue
        is_lost = lost(ms)
        kids = [q for q in children(ms) if is_lost or lost(q)]
        missing = [q for q in kids if q not in memo]
        if missing:
            stack.extend(missing)
            continue
        if not ms:
            memo[ms] = 0
        elif is_lost:
            memo[ms] = 1 + max(memo[q] for q in kids)
        else:
            memo[ms] = 1 + min(memo[q] for q in kids)
        stack.pop()
    return memo[key]


def remoteness_bound(config: HeapConfig, heaps: tuple[int, ...] | list[int], lost: bool) -> int:
    """An upper bound on the remoteness: the pebbles left, lowered to the outcome's parity.

    Each move removes at least one pebble, so no play lasts longer. The winner
    makes the last move of a play, which fixes the parity: normal play, wins
    are odd and losses even; misère (the end is a win), the other way round.
    """
    total = sum(heaps)
    if total == 0:
        return 0
    odd = lost == config.misere  # normal: win ⇒ odd; misère: loss ⇒ odd
    bound = total if (total % 2 == 1) == odd else total - 1
    return max(bound, 1)


# --- saved games (through games.grundy.variants' save_state and load_state) ----------------


def save_state(state: HeapState) -> dict[str, object]:
    """A position as JSON: the heap sizes and the player to move."""
    return {"heaps": list(state.heaps), "to_move": state.to_move}


def load_state(config: HeapConfig, data: object) -> HeapState:
    """The position :func:`save_state` wrote, for ``config``'s heaps.

    ValueError, saying what is wrong, unless every heap is a whole number no bigger than
    it started (pebbles are only ever taken) and the player to move fits: nobody has
    moved while nothing is taken, and exactly one move took a single pebble.
    """
    from engine.storage.saved_data import fields, items, whole

    record = fields(data, Phrase(N_("the position")), ("heaps", "to_move"))
    sizes = items(record["heaps"], Phrase(N_("the heaps")), len(config.heaps),
                  len(config.heaps))
    heaps = tuple(whole(size, Phrase(N_("heap {number}"), number=i + 1), 0, start)
                  for i, (size, start) in enumerate(zip(sizes, config.heaps, strict=True)))
    to_move = whole(record["to_move"], Phrase(N_("the player to move")), 0, 1)
    taken = sum(config.heaps) - sum(heaps)
    if taken <= 1 and to_move != taken:
        # Nothing or one pebble taken: a sentence each, no count to inflect.
        raise ValueError(Phrase(N_("with no pebble taken, player 1 must be to move")
                                if taken == 0 else
                                N_("with one pebble taken, player 2 must be to move")))
    return HeapState(config, heaps, to_move)
