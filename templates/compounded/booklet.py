"""Compounded's part of its rules booklet (docs/design/booklets.md): what
the engine deals at setup for each number of scientists, the table set up as
our pieces lie on it, and the worked example: a last round's end scoring
done by the engine itself (``Game.end_by_agreement`` runs the rulebook's
end scoring on the state as it stands)."""

from __future__ import annotations

from typing import Any

from engine.compounded.lab import compound_points

FONT = "DejaVu Sans"
INK = "#1d2430"
GREY = "#5b6670"
SEED = 3
"""The shuffle the setup drawings show (any seed deals the same counts)."""
NAMES = ("Ada", "Ben", "Cy", "Dee", "Eli")
"""The scientists of the drawings and the worked example (its first three)."""


def text(x: float, y: float, words: str, size: float, *, weight: str = "normal", fill: str = INK,
         anchor: str = "middle") -> str:
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-family="{FONT}" font-size="{size:.2f}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}">{words}</text>')


# --- setup ---------------------------------------------------------------------------
def setup_quantities(game: Any, players: int) -> dict[str, int | str]:
    r = game.rules
    s = game.setup(players, seed=SEED)
    partners = (len(game.setup(players, seed=SEED, options={"lab_partners": True}).lab_partner_cells)
                if players in r.cards.table.lab_partners.players else "none")
    return {
        "Grid": f"{s.rows} x {s.cols}",
        "Compound cards on the grid": sum(1 for c in s.grid if c.card),
        "Elements each": sum(s.scientists[0].bench.values()),
        "Claim tokens each": len(s.scientists[0].tokens),
        "Fire Extinguishers": sum(1 for sc in s.scientists if sc.tools.get("fire_extinguisher")),
        "Trade Dish": s.options["dish_size"] or "none",
        "Elements in the bag": sum(s.bag.values()),
        "End score": r.end_at[players],
        "Lab Partner cards": partners,
    }


def _table(book: Any, players: int, options: dict | None = None) -> str:
    from generator.booklet import svg_page

    r = book.game.rules
    s = book.game.setup(players, seed=SEED, options=options)
    colours = r.cards.table.scientists.colours
    parts: list[str] = []
    # the compound grid in the middle, as the engine dealt it
    card, gap = 30.0, 2.0
    big = card * 88 / 70
    gw = s.cols * (card + gap)
    bench_w, bench_h = 74.0, 74.0 * 185 / 250
    width = max(players * (bench_w + 6), 330.0)
    gx = width / 2 - gw / 2 + 40
    for i, cell in enumerate(s.grid):
        row, col = divmod(i, s.cols)
        x, y = gx + col * (card + gap), 4 + row * (card + gap)
        if i in s.lab_partner_cells:
            face = book.face("lab-partner-cards", cell.card)
            parts.append(book.nest(face, x - (big - card) / 2, y - (big - card) / 2, big, big))
        else:
            parts.append(book.nest(book.face("compound-cards", cell.card), x, y, card, card))
    grid_h = s.rows * (card + gap)
    parts.append(text(gx + gw / 2, grid_h + 9, f"the compound grid, {s.rows} x {s.cols}", 4.2, fill=GREY))
    # the scoreboard on its left, with the deck and the flame tokens on it
    sb_w, sb_h = 120.0, 84.0
    sx = gx - sb_w - 10
    parts.append(book.nest(book.face("scoreboard"), sx, 8, sb_w, sb_h))
    parts.append(text(sx + sb_w / 2, 8 + sb_h + 6, "scoreboard: deck, 30 flame tokens, tool tiles", 4.2, fill=GREY))
    # the bag, the tray and (2 players, or no trades) the Evaporating Trade Dish, on the right
    rx = gx + gw + 8
    parts.append(book.nest(book.face("lead-tray"), rx, 8, 45, 33))
    parts.append(text(rx + 22.5, 47, "Lead Scientist tray", 4.0, fill=GREY))
    if s.dish:
        parts.append(book.nest(book.face("trade-dish"), rx + 4, 54, 38, 38))
        x = rx + 11
        for e, n in s.dish.items():
            for _ in range(n):
                parts.append(book.nest(book.face("element-tokens", e.lower()), x, 66, 7, 7))
                x += 8
        parts.append(text(rx + 23, 98, "Evaporating Trade Dish", 4.0, fill=GREY))
    # one Workbench per scientist, with its three elements, extinguisher and reminder card
    top = max(grid_h + 16, 104.0)
    left = (width - players * (bench_w + 6)) / 2
    for seat in range(players):
        colour = colours[seat]
        x = left + seat * (bench_w + 6) + 3
        parts.append(book.nest(book.face("workbenches", colour), x, top, bench_w, bench_h))
        # the elements drawn at setup lie in the Workbench's Evaporating Dish (centre 49, 64 of 250 x 185 mm)
        k = bench_w / 250
        gems = [e for e, n in s.scientists[seat].bench.items() for _ in range(n)]
        size = 7.0
        ex = x + 49 * k - len(gems) * (size + 0.6) / 2
        for e in gems:
            parts.append(book.nest(book.face("element-tokens", e.lower()), ex, top + 64 * k - size / 2, size, size))
            ex += size + 0.6
        parts.append(book.nest(book.face("tool-tiles", "fire_extinguisher"), x + 14, top + bench_h + 2, 12, 12))
        parts.append(book.nest(book.face("reminder-cards"), x + 30, top + bench_h + 1, 8, 14))
        parts.append(book.nest(book.face("scientist-pieces", colour), x + 42, top + bench_h + 3, 9, 9))
        lead = seat == s.lead
        parts.append(text(x + bench_w / 2, top + bench_h + 21, f"{NAMES[seat]}"
                          f" ({colour}){' - lead' if lead else ''}", 4.2, weight="bold" if lead else "normal"))
    return svg_page(width, top + bench_h + 24, "".join(parts))


def setup_figure(book: Any, players: int) -> str:
    return _table(book, players)


# --- the worked example ------------------------------------------------------------------------
def _swap_into(s: Any, cell: int, card: str) -> None:
    """Put ``card`` on ``cell`` by swapping it with wherever it is (deck or grid), so no card is doubled."""
    here = s.grid[cell].card
    for other in s.grid:
        if other.card == card:
            other.card = here
            break
    else:
        s.deck[s.deck.index(card)] = here
    s.grid[cell].card = card


def example_state(game: Any) -> Any:
    """Three scientists after the last round's Lab phase, before the end scoring."""
    s = game.setup(3, seed=SEED)
    _swap_into(s, 0, "water")
    _swap_into(s, 1, "ammonia")
    _swap_into(s, 2, "methane")
    s.grid[0].elements = {"H": 2}            # Ada's water lacks its Oxygen
    s.grid[1].elements = {"N": 1}            # Cy's ammonia has only its Nitrogen
    s.grid[2].flames = 1                     # methane, burnt once
    ada, ben, cy = s.scientists
    ada.score, ben.score, cy.score = 55, 57, 60
    ada.bench, ben.bench, cy.bench = {"H": 2, "O": 2, "C": 1}, {"N": 1, "S": 1, "Ca": 1}, {"O": 1}
    ada.tokens, ben.tokens, cy.tokens = ["cell:0"], ["bench"], ["cell:1"]
    for sc in s.scientists:
        sc.lines = {}
    return s


def worked_example(game: Any) -> dict[str, dict[str, int | str]]:
    before = example_state(game)
    after = game.end_by_agreement(before)
    out: dict[str, dict[str, int | str]] = {
        "Methane, 1 flame token": {"Points": compound_points(game.rules, before, 2)},
        "Methane, no flames": {"Points": game.rules.compound("methane").points},
    }
    names = NAMES[:3]
    out["Score before"] = {n: sc.score for n, sc in zip(names, before.scientists)}
    out["Elements left (1 per 2)"] = {n: sc.lines.get("elements", 0) for n, sc in zip(names, after.scientists)}
    out["Claimed unfinished compounds"] = {n: sc.lines.get("unfinished", 0) for n, sc in zip(names, after.scientists)}
    out["Occupied spaces skipped"] = {n: sc.lines.get("skips", 0) for n, sc in zip(names, after.scientists)}
    out["Final score"] = {n: sc.score for n, sc in zip(names, after.scientists)}
    return out


def example_figure(book: Any) -> str:
    """The example's grid corner and benches: what each scientist scores from."""
    from generator.booklet import svg_page

    s = example_state(book.game)
    parts = []
    card = 40.0
    for i, who in ((0, "Ada's claim"), (1, "Cy's claim"), (2, "burnt once")):
        x = 4 + i * (card + 22)
        parts.append(book.nest(book.face("compound-cards", s.grid[i].card), x, 4, card, card))
        ex = x + 2
        for e, n in s.grid[i].elements.items():
            for _ in range(n):
                parts.append(book.nest(book.face("element-tokens", e.lower()), ex, 6 + card - 12, 9, 9))
                ex += 10
        if s.grid[i].flames:
            parts.append(book.nest(book.face("flame-tokens"), x + card - 11, 16, 9, 9))
        parts.append(text(x + card / 2, card + 10, who, 4.2, fill=GREY))
    y = card + 18
    for seat, sc in enumerate(s.scientists):
        x = 4 + seat * (card + 22)
        parts.append(text(x, y + 4, f"{NAMES[seat]}'s Workbench:", 4.2, anchor="start"))
        ex = x
        for e, n in sc.bench.items():
            for _ in range(n):
                parts.append(book.nest(book.face("element-tokens", e.lower()), ex, y + 7, 9, 9))
                ex += 10
    return svg_page(3 * (card + 22), y + 18, "".join(parts))


FIGURES = {
    "example": example_figure,
    "lab-partners-4": lambda book: _table(book, 4, {"lab_partners": True}),
}


# --- the card set's own numbers and names (docs/design/booklets.md) ------------------------------
def _levels(levels: list[int]) -> str:
    return ", ".join(str(v) for v in levels)


def set_values(book: Any) -> dict[str, int | str]:
    """What the booklet and player aid print that the card set decides: its
    counts, gems, tools, tracks and end scores."""
    cards = book.cards
    table = cards.table
    fires = [c for c in cards.deck if c in cards.lab_fires]
    tools = cards.tools
    ext = tools["fire_extinguisher"].count if "fire_extinguisher" in tools else 0
    others = sorted({t.count for i, t in tools.items() if i != "fire_extinguisher"})
    other_words = (f"{others[0]} each of {len(tools) - 1} other tools" if len(others) == 1
                   else f"{' or '.join(map(str, others))} of each other tool")
    end = table.scoreboard.end_at
    small, large = sorted({end[p] for p in end})[0], sorted({end[p] for p in end})[-1]
    out: dict[str, int | str] = {
        "compound-cards": len(cards.deck),
        "compounds": len(cards.deck) - len(fires),
        "lab-fires": len(fires),
        "lab-partner-cards": len(cards.lab_partners),
        "tool-tiles": sum(t.count for t in tools.values()),
        "tool-split": f"{ext} Fire Extinguishers and {other_words}",
        "gems": sum(e.count for e in table.elements),
        "gem-counts": ", ".join(f"{e.count} {e.name}" for e in table.elements),
        "flame-tokens": table.flame_tokens,
        "pieces": table.scientists.pieces * len(table.scientists.colours),
        "pieces-each": table.scientists.pieces,
        "colours": len(table.scientists.colours),
        "colour-names": ", ".join(table.scientists.colours),
        "score-spaces": table.scoreboard.score_spaces,
        "end-small": small,
        "end-large": large,
        "reminder-cards": table.reminder_cards.count,
    }
    for track in cards.workbench.tracks:
        out[f"{track.id}.levels"] = _levels(track.levels)
        out[f"{track.id}.top"] = track.top_points
        out[f"{track.id}.places"] = len(track.levels)
    lab = cards.track("lab")
    out["lab.points"] = _levels((lab.advance_points or [])[1:])
    out["journal-at"] = cards.track("study").journal_at or ""
    return out
