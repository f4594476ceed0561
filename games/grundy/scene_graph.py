"""A token on a directed graph: follow an arrow; whoever cannot move loses; cycles may draw."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _, pgettext
from engine.model.seats import Seat
from engine.model.values import MoveValue, nimber_text
from engine.ui.animation import SLIDE, ease_out
from engine.ui.theme import Colour
from engine.ui.value_overlay import draw_value_badge
from engine.ui.widgets import MIN_TEXT, Label, wrap_text
from games.grundy.colour_render import (
    NodeLook,
    draw_look,
    draw_look_text,
    legend_rows,
    node_look,
)
from games.grundy.family_scene import GrundyScene
from games.grundy.graphs import (
    BUILTIN,
    DRAW,
    REPETITIONS_FOR_DRAW,
    Digraph,
    GraphState,
    generalized_grundy,
    label_outcomes,
)
from games.grundy.help_text import graph_rules
from games.grundy.panel_render import (
    NoteFlow,
    draw_dashed_ring,
    draw_double_ring,
    draw_player_tag,
)
from games.grundy.variants import GrundySetup

if TYPE_CHECKING:
    from engine.runtime.app import App

Area = tuple[float, float, float, float]
ARROW_LEN, ARROW_HALF = 13.0, 6.0  # arrowhead length and half width (design px)
BEND = 0.16  # how far two-way edges bow apart, as a fraction of their length
MAX_RADIUS, MIN_RADIUS = 32.0, 11.0
Point = tuple[float, float]
# The legal-move mark: two rings this far out from the node, this thick, this far apart
# (design px). Between them the last move's dashed ring still shows when both apply.
MOVE_RING_OFFSET, MOVE_RING_WIDTH, MOVE_RING_GAP = 1.5, 2.5, 3.5
# The legend (design px): a sample's height, the room between samples, a title's height.
SAMPLE, SAMPLE_GAP, LEGEND_TITLE = 20.0, 4.0, 24.0


# The built-in graphs' named nodes (games/grundy/graphs.py), for the catalogue: the
# graphs name them in English, which stays their id; node_label shows them translated.
NODE_CONTEXT = "graph node"
_MARKED = (pgettext("graph node", "Start"), pgettext("graph node", "Rapids"),
           pgettext("graph node", "Weir"), pgettext("graph node", "Eddy"),
           pgettext("graph node", "Pool"), pgettext("graph node", "Jetty"),
           pgettext("graph node", "Shore"), pgettext("graph node", "Gate"),
           pgettext("graph node", "North"), pgettext("graph node", "East"),
           pgettext("graph node", "South"), pgettext("graph node", "West"),
           pgettext("graph node", "Home"))


def node_label(name: str) -> str:
    """A node's name as shown: a built-in name in the player's language, any other
    (a letter, "p1q2", "W1") as it is."""
    return pgettext(NODE_CONTEXT, name)


def _node_positions(graph: Digraph, board: Area, margin: float) -> tuple[Point, ...]:
    """Design-space centres of the nodes, the layout's unit square inside ``board``."""
    x, y, w, h = board
    return tuple((x + margin + lx * (w - 2 * margin), y + margin + ly * (h - 2 * margin))
                 for lx, ly in graph.layout)


@lru_cache(maxsize=32)
def _start(graph: Digraph, setup: GrundySetup) -> GraphState:
    """The token on the graph's start, or on the node the game ID names."""
    return GraphState(graph, setup.start[0]) if setup.start else GraphState.start(graph)


def graph_geometry(graph: Digraph, board: Area) -> tuple[float, tuple[Point, ...]]:
    """(node radius, node centres) in design coordinates inside ``board`` (x, y, w, h),
    sized so nodes never touch; the nodes grow with the board up to :data:`MAX_RADIUS`
    times the board's size over the 560 units it was drawn for."""
    side = min(board[2], board[3])
    grow = max(1.0, side / 560.0)
    guess = _node_positions(graph, board, 50.0 * grow)
    closest = min((math.dist(a, b) for i, a in enumerate(guess) for b in guess[i + 1:]),
                  default=2 * MAX_RADIUS / 0.36)
    radius = max(MIN_RADIUS, min(MAX_RADIUS * grow, 0.36 * closest))
    # Room around the outer nodes for the value badge and the token's ring.
    return radius, _node_positions(graph, board, radius + 24)


def _bezier(a: Point, c: Point, b: Point, steps: int) -> list[Point]:
    return [((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
             (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1])
            for t in (i / steps for i in range(steps + 1))]


def point_along(path: list[Point], t: float) -> Point:
    """The point ``t`` (0..1) of the way along the polyline ``path``, by length."""
    lengths = [math.dist(p, q) for p, q in zip(path, path[1:], strict=False)]
    goal = max(0.0, min(1.0, t)) * sum(lengths)
    for (p, q), length in zip(zip(path, path[1:], strict=False), lengths, strict=True):
        if goal <= length and length > 0:
            f = goal / length
            return (p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f)
        goal -= length
    return path[-1]


def edge_path(a: Point, b: Point, radius: float, two_way: bool) -> list[Point]:
    """Points of the edge a → b (design space) from a's rim to just outside b's rim.

    A two-way pair bows to either side (each edge to its own right), so both
    arrows stay visible; the last point is the arrowhead's tip.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    if not two_way:
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        return [(a[0] + ux * (radius + 2), a[1] + uy * (radius + 2)),
                (b[0] - ux * (radius + 3), b[1] - uy * (radius + 3))]
    control = ((a[0] + b[0]) / 2 - dy * BEND, (a[1] + b[1]) / 2 + dx * BEND)
    # Trim the curve to the parts outside both circles.
    return [q for q in _bezier(a, control, b, 32)
            if math.dist(q, a) > radius + 2 and math.dist(q, b) > radius + 3]


class GraphScene(GrundyScene):
    """Move a token along the arrows of a built-in graph; hints give Smith's labels."""

    help_title = N_("Graph games: rules and labels")

    @property
    def help_text(self) -> str:  # type: ignore[override]
        """The rules (examples computed, levels from the ladder), in the current language."""
        return graph_rules()

    def __init__(self, app: App, setup: GrundySetup, seats: tuple[Seat, ...] | None = None,
                 seed: int | None = None) -> None:
        self.graph: Digraph = BUILTIN[setup.graph % len(BUILTIN)]
        super().__init__(app, setup, _start(self.graph, setup), seats, seed)
        self.mouse: Point | None = None  # pointer, design coordinates
        self.cursor: int | None = None  # keyboard choice among the successors (a node)
        self._label_size: tuple[Any, float] = (None, 16.0)  # (radius, scale) → label size
        # What the legend drew last frame: (sample rect in pixels, the value look or None
        # for a mark's sample, the row's text), so a test can hold it against the nodes.
        self.legend_samples: list[tuple[pygame.Rect, NodeLook | None, str]] = []
        self.ui.add(Label(self.place("variant"), self.graph.name, size=16, bold=True,
                          role="accent", fit_lines=3, min_size=13))

    # --- layout ------------------------------------------------------------------------------
    def extras_height(self) -> float:
        # Below the board: the description, the last move and the hint legend in columns.
        return 260.0

    def geometry(self) -> tuple[float, tuple[Point, ...]]:
        """(node radius, node centres) in design coordinates for the current layout."""
        return graph_geometry(self.graph, tuple(self.layout()["board"]))

    # --- hooks ----------------------------------------------------------------------------
    def fresh_state(self) -> Any:
        """The graph's start, or the node the game ID names (``graph:0:@3``)."""
        return _start(self.graph, self.setup)

    def hint_extra(self, state: Any, cancel: Any) -> dict[str, Any]:
        """Every node's generalised Grundy value and outcome label, and the arithmetic."""
        return {"values": generalized_grundy(state.graph),
                "outcomes": label_outcomes(state.graph),
                "explained": state.value_explained()}

    # --- geometry and moves ---------------------------------------------------------------------
    def node_at(self, x: float, y: float) -> int | None:
        """The node whose circle contains design point (x, y)."""
        radius, centres = self.geometry()
        for u, c in enumerate(centres):
            if math.dist(c, (x, y)) <= radius * 1.1:
                return u
        return None

    def targets(self) -> list[int]:
        """The nodes the token may move to now (none for the computer's turn or at the end)."""
        if self.state.is_terminal():
            return []
        return list(self.state.legal_moves())

    def last_move(self) -> tuple[int, int, int] | None:
        """(player, from, to) of the move that led here in this game, if any."""
        step = self.last_step()
        if step is None:
            return None
        before, now = step
        return before.current_player(), before.node, now.node

    def marked_edges(self) -> list[tuple[int, int, int]]:
        """(player, from, to) of every move the graph marks, oldest first (see
        :meth:`GrundyScene.marked_moves`)."""
        return [(player, before.node, after.node)
                for player, before, after in self.marked_moves()]

    def move_sound(self, before: Any, after: Any) -> str:
        return "slide"

    def on_moved(self, before: Any, after: Any) -> None:
        """The token slides along the arrow it followed."""
        self.anim.start("slide", SLIDE, data=(before.node, after.node))

    def token_point(self) -> Point:
        """Where the token is drawn now (design units): on its node, or on the way along the
        arrow it is following while its slide runs."""
        radius, centres = self.geometry()
        t = self.anim.progress("slide")
        node = self.state.node
        if t is None:
            return centres[node]
        a, b = self.anim.data("slide")
        if a == b or b != node:
            return centres[node]
        path = [centres[a], *edge_path(centres[a], centres[b], radius,
                                        a in self.graph.edges[b]), centres[b]]
        return point_along(path, ease_out(t))

    def pointed(self) -> int | None:
        """The successor the keyboard cursor or the pointer is on, if a human may move there."""
        if self.computer_to_move():
            return None
        targets = self.targets()
        if self.cursor is not None and self.cursor in targets:
            return self.cursor
        if self.mouse is not None:
            node = self.node_at(*self.mouse)
            if node in targets:
                return node
        return None

    # --- input -----------------------------------------------------------------------------
    def board_event(self, event: pygame.event.Event) -> None:
        vp = self.app.viewport
        if event.type == pygame.MOUSEMOTION:
            self.mouse = vp.to_design(event.pos)
            self.cursor = None
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = vp.to_design(event.pos)
            self.cursor = None
            node = self.node_at(*self.mouse)
            if node is not None:
                self.play_move(node)  # not a successor: play_move refuses, nothing happens
        elif event.type == pygame.KEYDOWN:
            targets = self.targets()
            if not targets:
                return
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
                step = 1 if event.key in (pygame.K_RIGHT, pygame.K_DOWN) else -1
                if self.cursor in targets:
                    self.cursor = targets[(targets.index(self.cursor) + step) % len(targets)]
                else:
                    self.cursor = targets[0]
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                if self.cursor in targets:
                    self.play_move(self.cursor)

    # --- text -----------------------------------------------------------------------------------
    def node_name(self, node: int) -> str:
        """How the screen names a node: a built-in graph's named nodes in the player's
        language (their ids, and the letters and "p1q2" of the others, stay)."""
        return node_label(self.graph.labels[node])

    def status_text(self) -> str:
        state = self.state
        if state.is_terminal():
            if state.drawn_by_repetition():
                return _("Draw: the position repeated three times. "
                         "New game (N) to play again.")
            loser = state.current_player()
            return _("{winner} wins: the token is on {node}, with no arrow out, so {loser} "
                     "cannot move. New game (N) to play again.").format(
                winner=self.player_name(1 - loser), node=self.node_name(state.node),
                loser=self.player_name(loser))
        hints = self.hint_view()
        text = self.turn_text(None if hints.get("explained")
                              else _("click a double-ringed node."))
        if state.repetitions == REPETITIONS_FOR_DRAW - 1:
            text += " " + _("This position has occurred twice: once more is a draw.")
        if hints.get("explained"):
            # Who wins with best play, in the players' names.
            name = self.player_name(state.current_player())
            explained = hints["explained"].replace(_("the player to move"), name)
            text += f" {explained[0].upper()}{explained[1:]}"
        return text

    def draw_board(self, surface: pygame.Surface) -> None:
        vp = self.app.viewport
        p = self.app.theme.palette
        pygame.draw.rect(surface, p.board, self.area("board"), border_radius=vp.px(12))
        hints = self.hint_view()
        marks = self.marked_edges()
        self._draw_edges(surface, hints, marks)
        self._draw_nodes(surface, hints, marks)
        self._draw_token(surface)
        self._draw_mark_tags(surface, marks)
        self.draw_player_cards(surface)
        self._draw_side_panel(surface, hints)

    def _draw_edges(self, surface: pygame.Surface, hints: dict[str, Any],
                    marks: list[tuple[int, int, int]]) -> None:
        p = self.app.theme.palette
        graph = self.graph
        radius, centres = self.geometry()
        state = self.state
        targets = set(self.targets())
        marked = {(u, v) for _player, u, v in marks}
        pointed = self.pointed()
        winning = set(hints.get("winning", ()))
        # Plain arrows first, the possible moves over them, the last moves on top.
        layers: list[list[tuple[int, int, Colour, float]]] = [[], [], []]
        for u, succ in enumerate(graph.edges):
            for v in succ:
                from_token = u == state.node and v in targets
                if (u, v) in marked:
                    layers[2].append((u, v, p.focus, 5.0))
                elif from_token and v in winning:
                    layers[1].append((u, v, p.good, 4.0))
                elif from_token:
                    layers[1].append((u, v, *((p.focus, 4.5) if v == pointed
                                               else (p.accent, 3.0))))
                else:
                    layers[0].append((u, v, p.grid, 1.6))
        for layer, edges in enumerate(layers):
            for u, v, colour, width in edges:
                if layer == 2:
                    # The arrow travelled: a dark casing round a thick line, so it reads
                    # apart from the plain accent arrows of the possible moves.
                    self._draw_edge(surface, u, v, p.background, width + 4, radius, centres)
                self._draw_edge(surface, u, v, colour, width, radius, centres)

    def _draw_edge(self, surface: pygame.Surface, u: int, v: int, colour: Colour, width: float,
                   radius: float, centres: tuple[Point, ...]) -> None:
        """The arrow u → v (a small loop for a pass u → u)."""
        vp = self.app.viewport
        if u == v:
            self._draw_loop(surface, centres[u], radius, colour, width)
            return
        path = edge_path(centres[u], centres[v], radius, u in self.graph.edges[v])
        if len(path) >= 2:
            self._draw_arrow(surface, [vp.point(*q) for q in path], colour,
                             max(1, round(width * vp.scale)))

    def _draw_mark_tags(self, surface: pygame.Surface, marks: list[tuple[int, int, int]]) -> None:
        """The mover's number half-way along each marked arrow: whose move it was."""
        vp = self.app.viewport
        radius, centres = self.geometry()
        for player, u, v in marks:
            if u == v:
                spot = (centres[u][0] - radius * 0.9, centres[u][1] - radius * 1.3)
            else:
                path = edge_path(centres[u], centres[v], radius, u in self.graph.edges[v])
                spot = point_along(path, 0.5) if path else centres[v]
            draw_player_tag(surface, self.app.theme, vp.point(*spot), vp.px(10), player)

    def _draw_arrow(self, surface: pygame.Surface, points: list[tuple[int, int]],
                    colour: Colour, width: int) -> None:
        """An anti-aliased polyline ending in a filled arrowhead at its last point."""
        vp = self.app.viewport
        tip = points[-1]
        # Direction of the head from a point a little way back along the path.
        back = next((q for q in reversed(points[:-1]) if math.dist(q, tip) > vp.px(4)),
                    points[0])
        dx, dy = tip[0] - back[0], tip[1] - back[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        head, half = ARROW_LEN * vp.scale + width, ARROW_HALF * vp.scale + width / 2
        base = (tip[0] - ux * head, tip[1] - uy * head)
        # The shaft stops inside the head so its square end never pokes out.
        shaft = [q for q in points[:-1] if math.dist(q, tip) > head * 0.8]
        shaft.append((tip[0] - ux * head * 0.8, tip[1] - uy * head * 0.8))
        for a, b in zip(shaft, shaft[1:], strict=False):
            pygame.draw.aaline(surface, colour, a, b, width)
        poly = [tip, (base[0] - uy * half, base[1] + ux * half),
                (base[0] + uy * half, base[1] - ux * half)]
        pygame.draw.polygon(surface, colour, poly)
        pygame.draw.aalines(surface, colour, True, poly)

    def _draw_loop(self, surface: pygame.Surface, centre: Point, radius: float, colour: Colour,
                   width: float) -> None:
        """A pass (u → u): a small circle on top of the node with an arrowhead."""
        vp = self.app.viewport
        r = radius * 0.5
        c = (centre[0], centre[1] - radius - r * 0.6)
        pygame.draw.aacircle(surface, colour, vp.point(*c), r * vp.scale,
                             max(1, round(width * vp.scale)))
        tip = (centre[0] + radius * 0.45, centre[1] - radius * 0.92)
        self._draw_arrow(surface, [vp.point(tip[0] + 4, tip[1] - 8), vp.point(*tip)], colour,
                         max(1, round(width * vp.scale)))

    def node_looks(self, hints: dict[str, Any]) -> tuple[NodeLook, ...] | None:
        """Every node's look from the hint's values (None while no hint is shown): what
        the nodes and the legend are both drawn from."""
        values: tuple[int | None, ...] | None = hints.get("values")
        if values is None:
            return None
        outcomes: tuple[str, ...] = hints.get("outcomes", ())
        top = max((v for v in values if v is not None), default=0)
        palette = self.app.theme.palette
        return tuple(node_look(value, bool(outcomes) and outcomes[u] == DRAW, top, palette)
                     for u, value in enumerate(values))

    def _draw_nodes(self, surface: pygame.Surface, hints: dict[str, Any],
                    marks: list[tuple[int, int, int]]) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        graph, state = self.graph, self.state
        radius, centres = self.geometry()
        r = radius * vp.scale
        sliding = self.anim.progress("slide") is not None
        sources = {u for _player, u, v in marks if u != v}
        looks = self.node_looks(hints)
        targets = set(self.targets())
        computer = self.computer_to_move()
        winning, draws = set(hints.get("winning", ())), set(hints.get("draws", ()))
        pointed = self.pointed()
        label_font = self._label_font(radius)
        for u, centre in enumerate(centres):
            c = vp.point(*centre)
            box = pygame.Rect(0, 0, round(2 * r), round(2 * r))
            box.center = c
            # Fill: with hints the value's look (fill, stripes for 0), else a plain look
            # (the token's node in the accent colour), drawn by the same function.
            if looks is not None:
                look = looks[u]
            elif u == state.node and not sliding:
                look = NodeLook(0, "", p.accent, False, "")
            else:
                look = NodeLook(0, "", p.hover if u == pointed else p.panel, False, "")
            draw_look(surface, p, look, box, vp.px(7), max(1, vp.px(2)))
            edge_colour, edge_width = p.grid, 2.0
            if u == pointed:
                edge_colour, edge_width = p.focus, 5.0
            pygame.draw.aacircle(surface, edge_colour, c, r, max(1, round(edge_width * vp.scale)))
            if u == state.node and not sliding:
                self._draw_token_ring(surface, c, r)
            if u in sources:
                # Where the last move started: a dashed ring (the token's ghost).
                draw_dashed_ring(surface, p.background, c, r + vp.px(7), vp.px(6), dashes=14)
                draw_dashed_ring(surface, p.focus, c, r + vp.px(7), vp.px(4), dashes=14)
            if u in targets and not computer:
                # A legal move: a double ring, a shape no value's look has. Not while a
                # computer is to move: the legend reads "you can move here".
                draw_double_ring(surface, p.accent, c, r + vp.px(MOVE_RING_OFFSET),
                                 vp.px(MOVE_RING_GAP), max(1, vp.px(MOVE_RING_WIDTH)))
            draw_look_text(surface, look, label_font, node_label(graph.labels[u]), c,
                           vp.px(2))
            if looks is not None:
                self._value_badge(surface, c, r, look.tag)
            if u in winning:
                self._mark(surface, c, r, "✓", p.good)
            elif u in draws and not winning:
                self._mark(surface, c, r, "draw", p.muted)

    def _draw_token_ring(self, surface: pygame.Surface, c: tuple[int, int], r: float) -> None:
        """The token: a thick double ring round its node, visible over any fill colour."""
        vp = self.app.viewport
        p = self.app.theme.palette
        pygame.draw.aacircle(surface, p.background, c, r + vp.px(5), vp.px(3))
        pygame.draw.aacircle(surface, p.focus, c, r + vp.px(9), vp.px(5))

    def _draw_token(self, surface: pygame.Surface) -> None:
        """While the token slides: a disc with the token's ring on its way along the arrow
        (otherwise the ring is drawn with its node, under the value badge)."""
        if self.anim.progress("slide") is None:
            return
        vp = self.app.viewport
        radius, _centres = self.geometry()
        r = radius * vp.scale
        c = vp.point(*self.token_point())
        pygame.draw.aacircle(surface, self.app.theme.palette.accent, c, r * 0.8)
        self._draw_token_ring(surface, c, r)

    def _label_font(self, radius: float) -> pygame.font.Font:
        """The largest font (up to 16 design px) in which every label fits its circle
        (worked out once per radius and scale)."""
        vp, theme = self.app.viewport, self.app.theme
        key = (radius, vp.scale)
        if self._label_size[0] != key:
            size = 16.0
            while size > 8:
                font = theme.font(size * vp.scale, bold=True)
                if all(font.size(node_label(lab))[0] <= 1.7 * radius * vp.scale
                       for lab in self.graph.labels):
                    break
                size -= 1
            self._label_size = (key, size)
        return theme.font(self._label_size[1] * vp.scale, bold=True)

    def _value_badge(self, surface: pygame.Surface, c: tuple[int, int], r: float,
                     tag: str) -> None:
        """The node's value as text on a small tag up-right: a number, ∞ or ∞ win."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        font = theme.font(14 * vp.scale, bold=True)
        img = font.render(tag, True, p.text)
        box = img.get_rect(center=(c[0] + r * 0.85, c[1] - r * 0.85)).inflate(vp.px(8), vp.px(2))
        box.width = max(box.width, box.height)
        pygame.draw.rect(surface, p.background, box, border_radius=vp.px(6))
        pygame.draw.rect(surface, p.text, box, 1, border_radius=vp.px(6))
        surface.blit(img, img.get_rect(center=box.center))

    def _mark(self, surface: pygame.Surface, c: tuple[int, int], r: float, text: str,
              colour: Colour) -> None:
        """A hint mark on a target node: a ✓ badge (up-left; the value's tag is up-right) or
        a "draw" tag below. The legal-move double ring already frames the node."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        if text == "✓":
            draw_value_badge(surface, (c[0] - r * 0.85, c[1] - r * 0.85),
                             max(vp.px(8), round(r * 0.36)), MoveValue("win"), theme)
            return
        font = theme.font(14 * vp.scale, bold=True)
        img = font.render(text, True, p.background)
        box = img.get_rect(center=(c[0], c[1] + r + vp.px(16))).inflate(vp.px(8), vp.px(2))
        pygame.draw.rect(surface, colour, box, border_radius=vp.px(6))
        surface.blit(img, img.get_rect(center=box.center))

    def _draw_side_panel(self, surface: pygame.Surface, hints: dict[str, Any]) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        flow = NoteFlow(surface, vp, theme, self.layout()["notes"])
        last = self.last_move()
        if last is not None:
            player, a, b = last
            flow.text(_("Last move: {player}, {start} → {end}").format(
                player=self.player_name(player), start=self.node_name(a),
                end=self.node_name(b)), p.text, size=14)
        self.legend_samples = []
        rows = self.legend(hints)
        box = flow.block(self._legend_height(rows, flow.column.w), gap=6)
        if box is not None:
            self._draw_legend(surface, rows, box)
        # The documents' descriptions are long: they take the room left, in smaller type
        # or shortened with "…" only when the window is small.
        flow.text(_(self.graph.description), p.muted, size=13, min_size=11)

    def legend(self, hints: dict[str, Any]) -> list[tuple[str, tuple[NodeLook, ...], str]]:
        """The legend's rows as (kind, looks, text): a "values" row per meaning of the looks
        on this graph (from :meth:`node_looks`, what the nodes are filled from), the legal
        move's double ring ("move") and, with hints, the winning move's ✓ ("win")."""
        rows: list[tuple[str, tuple[NodeLook, ...], str]] = []
        looks = self.node_looks(hints)
        if looks is not None:
            rows += [("values", row.looks, _(row.meaning)) for row in legend_rows(looks)]
        rows.append(("move", (), _("you can move here")))
        if looks is not None:
            rows.append(("win", (), _("winning move")))
        return rows

    def _legend_fonts(self) -> tuple[pygame.font.Font, pygame.font.Font]:
        """(text font, samples' font) of the legend at the current scale."""
        theme, scale = self.app.theme, self.app.viewport.scale
        return theme.font(MIN_TEXT * scale), theme.font(MIN_TEXT * scale, bold=True)

    def _sample_widths(self, kind: str, looks: tuple[NodeLook, ...]) -> list[float]:
        """Design widths of a row's samples: a disc per value, a pill for "∞ win", a ringed
        disc for a legal move, a ✓ badge for a winning one."""
        if kind == "move":
            return [SAMPLE + 2 * (MOVE_RING_OFFSET + 2 * MOVE_RING_WIDTH + MOVE_RING_GAP)]
        if kind == "win":
            return [SAMPLE]
        _text, tag_font = self._legend_fonts()
        scale = self.app.viewport.scale
        return [max(SAMPLE, tag_font.size(look.tag)[0] / scale + 10) for look in looks]

    def _row_layout(self, kind: str, looks: tuple[NodeLook, ...], text: str,
                    width: float) -> tuple[list[float], list[str], float]:
        """(sample widths, the text's lines beside them, the row's height) in design units."""
        font, _tag = self._legend_fonts()
        widths = self._sample_widths(kind, looks)
        used = sum(w + SAMPLE_GAP for w in widths) + 2
        scale = self.app.viewport.scale
        lines = wrap_text(text, font, max(40, round((width - used) * scale)))
        sample = widths[0] if kind == "move" else SAMPLE
        return widths, lines, max(sample, len(lines) * font.get_linesize() / scale) + 6

    def _legend_height(self, rows: list[tuple[str, tuple[NodeLook, ...], str]],
                       width: float) -> float:
        return LEGEND_TITLE + sum(self._row_layout(*row, width)[2] for row in rows)

    def _draw_legend(self, surface: pygame.Surface,
                     rows: list[tuple[str, tuple[NodeLook, ...], str]], box: FRect) -> None:
        """The legend in ``box``: each row's samples drawn as the nodes are, then its text."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        font, tag_font = self._legend_fonts()
        title = _("Hint") if rows[0][0] == "values" else _("Key")
        surface.blit(theme.font(15 * vp.scale, bold=True).render(title, True, p.text),
                     vp.point(box.x, box.y))
        y = box.y + LEGEND_TITLE
        for kind, looks, text in rows:
            widths, lines, height = self._row_layout(kind, looks, text, box.w)
            x = box.x
            for i, w in enumerate(widths):
                side = w if kind == "move" else SAMPLE
                rect = vp.rect(x, y + (height - 6 - side) / 2, w, side)
                if w == side:
                    rect.width = rect.height  # a disc, as the nodes are
                self._draw_sample(surface, kind, looks[i] if looks else None, rect, tag_font)
                self.legend_samples.append((rect, looks[i] if looks else None, text))
                x += w + SAMPLE_GAP
            ty = y + (height - 6 - len(lines) * font.get_linesize() / vp.scale) / 2
            for line in lines:
                surface.blit(font.render(line, True, p.text), vp.point(x + 2, ty))
                ty += font.get_linesize() / vp.scale
            y += height

    def _draw_sample(self, surface: pygame.Surface, kind: str, look: NodeLook | None,
                     rect: pygame.Rect, tag_font: pygame.font.Font) -> None:
        """One legend sample in ``rect`` (pixels), drawn by the nodes' own functions."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        c = rect.center
        if kind == "win":
            draw_value_badge(surface, c, rect.height / 2, MoveValue("win"), theme)
        elif kind == "move":
            r = vp.px(SAMPLE / 2 - 2)
            pygame.draw.aacircle(surface, p.panel, c, r)
            pygame.draw.aacircle(surface, p.grid, c, r, max(1, vp.px(1)))
            draw_double_ring(surface, p.accent, c, r + vp.px(MOVE_RING_OFFSET),
                             vp.px(MOVE_RING_GAP), max(1, vp.px(MOVE_RING_WIDTH)))
        elif look is not None:
            draw_look(surface, p, look, rect, vp.px(5), max(1, vp.px(1.5)))
            draw_look_text(surface, look, tag_font, look.tag, c, vp.px(1))

    def debug_state(self) -> dict[str, Any]:
        state = self.state
        hints = self.hint_view(shown_only=False)
        values = hints.get("values")
        return {**super().debug_state(), "graph": self.graph.name, "node": state.node,
                "label": self.graph.labels[state.node], "to_move": state.current_player(),
                "targets": self.targets(), "value": state.value(),
                # The node's label as the theory writes it (∞ with its K), and each hinted
                # move's: "value" above is the outcome convention (1 for a won ∞ node).
                "nimber": None if (n := state.nimber()) is None else nimber_text(n),
                "hint_nimbers": [[m, nimber_text(v.nimber)] for m, v in self.hints.items()
                                 if v.nimber is not None],
                "repetitions": state.repetitions, "pointed": self.pointed(),
                "hint_values": (None if values is None else
                                ["∞" if v is None else v for v in values]),
                "winning": list(hints.get("winning", ())),
                "draws": list(hints.get("draws", ()))}
