"""The plots of a balance report's page (:mod:`labkit.balance_html`):
matplotlib's SVG (the Agg backend, text as paths: no font to fetch), set
inline. Labels are drawn at 9 points or more, so a card's name reads at
the page's width.
"""

from __future__ import annotations

import io
import re
from typing import Any, Mapping

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

THIS, OTHER = "#1f6f8b", "#c0843b"
"""The set's colour and the comparison set's, on every plot."""


def _times(figs, card: str, verb: str) -> int:
    c = figs["cards"].get(card)
    return c["verbs"][verb]["times"] if c is not None and verb in c["verbs"] else 0


def done(this, other, verb: str) -> list[str]:
    """The cards that were ever ``verb`` in either set's games: a verb that is
    not a card's (a notecard is never "used" like a tool) is left off its rows."""
    return [c for c in this["cards"] if _times(this, c, verb) or _times(other, c, verb)]


def svg(fig) -> str:
    buf = io.StringIO()
    with plt.rc_context({"svg.hashsalt": "labkit-balance", "svg.fonttype": "path", "font.size": 10}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buf.getvalue()
    text = text[text.index("<svg"):]  # no XML declaration or DOCTYPE inside a page
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)  # its RDF names a web address
    return f"<figure>{text}</figure>"


def seat_plot(this, other, names):
    counts = list(this["seat_advantage"])
    fig, axes = plt.subplots(1, len(counts), figsize=(3.2 * len(counts) + 0.5, 2.8), squeeze=False)
    for ax, p in zip(axes[0], counts):
        for shift, figs, colour, label in ((-0.12, this, THIS, names[0]), (0.12, other, OTHER, names[1])):
            seats = figs["seat_advantage"].get(p)
            if not seats:
                continue
            xs = [s + 1 + shift for s in range(len(seats))]
            ys = [r["rate"] for r in seats]
            err = [[max(0.0, r["rate"] - r["low"]) for r in seats], [max(0.0, r["high"] - r["rate"]) for r in seats]]
            ax.errorbar(xs, ys, yerr=err, fmt="o", color=colour, capsize=3, label=label)
        ax.axhline(1 / int(p), linestyle=":", color="#888")
        ax.set_title(f"{p} players")
        ax.set_xticks(range(1, int(p) + 1))
        ax.set_xlabel("seat")
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel("win rate")
    axes[0][-1].legend(fontsize=9, loc="upper right")
    fig.tight_layout()
    return fig


def _stats(s: Mapping[str, float], label: str) -> dict[str, Any]:
    return {"whislo": s["p10"], "q1": s["p25"], "med": s["p50"], "q3": s["p75"], "whishi": s["p90"],
            "mean": s["mean"], "label": label, "fliers": []}


def _bxp(ax, this_stats, other_stats, labels) -> None:
    n = len(this_stats)
    for stats, shift, colour in ((this_stats, -0.18, THIS), (other_stats, 0.18, OTHER)):
        pos = [i + 1 + shift for i in range(len(stats))]
        if stats:
            ax.bxp(stats, positions=pos, widths=0.3, showmeans=True, patch_artist=True,
                   boxprops={"facecolor": colour, "alpha": 0.5}, medianprops={"color": "#222"},
                   meanprops={"marker": "^", "markerfacecolor": colour, "markeredgecolor": "#222", "markersize": 4})
    ax.set_xticks(range(1, n + 1))
    ax.set_xticklabels(labels)


def box_plot(this, other, names, figure: str, what: str):
    counts = list(this[figure])
    fig, axes = plt.subplots(1, len(counts), figsize=(3.2 * len(counts) + 0.5, 2.8), squeeze=False)
    for ax, p in zip(axes[0], counts):
        a = [_stats(s, str(i + 1)) for i, s in enumerate(this[figure][p])]
        b = [_stats(s, str(i + 1)) for i, s in enumerate(other[figure].get(p, []))]
        _bxp(ax, a, b, [str(i + 1) for i in range(len(a))])
        ax.set_title(f"{p} players")
        ax.set_xlabel("seat")
    axes[0][0].set_ylabel(what)
    fig.tight_layout()
    return fig


def length_plot(this, other, names):
    fig, axes = plt.subplots(1, 3, figsize=(10, 2.8), squeeze=False)
    for ax, figure in zip(axes[0], ("rounds", "actions", "lead_changes")):
        counts = list(this[figure])
        a = [_stats(this[figure][p], p) for p in counts]
        b = [_stats(other[figure][p], p) for p in counts if p in other[figure]]
        _bxp(ax, a, b, [f"{p} players" for p in counts])
        ax.set_ylabel(figure.replace("_", " "))
    fig.tight_layout()
    return fig


def card_plot(this, other, names, verb: str):
    cards = done(this, other, verb)
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.28 * max(len(cards), 1)))
    for shift, figs, colour, label in ((-0.15, this, THIS, names[0]), (0.15, other, OTHER, names[1])):
        ys, xs, lo, hi = [], [], [], []
        for i, card in enumerate(cards):
            c = figs["cards"].get(card)
            if c is None or verb not in c["verbs"]:
                continue
            r = c["verbs"][verb]
            ys.append(len(cards) - i + shift)
            xs.append(r["rate"])
            lo.append(max(0.0, r["rate"] - r["low"]))  # (Wilson's bounds, rounded, may pass a rate of 0 or 1)
            hi.append(max(0.0, r["high"] - r["rate"]))
        if xs:
            ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", markersize=3, color=colour, capsize=2, linewidth=0.8,
                        label=label)
    ax.set_yticks([len(cards) - i for i in range(len(cards))])
    ax.set_yticklabels([this["cards"][c]["name"] for c in cards], fontsize=10)
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"share of games in which it was {verb}" if verb.endswith("ed") else f"share of games: {verb}")
    ax.legend(fontsize=9, loc="lower right")
    fig.tight_layout()
    return fig
