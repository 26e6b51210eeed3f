"""A balance report as one self-contained HTML page, drawn from its JSON
figures alone (:func:`labkit.balance.report`): the plots are matplotlib's
SVG (the Agg backend, text as paths: no font to fetch) set inline, the
tables plain HTML, the style in the page. No script, no link out: it opens
offline and can be mailed as one file. The same figures draw the same page.
"""

from __future__ import annotations

import html
import io
import re
from typing import Any, Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

THIS, OTHER = "#1f6f8b", "#c0843b"
"""The set's colour and the comparison set's, on every plot."""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.marked { background: #fde2c8; font-weight: bold; }
.flag { color: #a01818; }
.this { color: #1f6f8b; } .other { color: #c0843b; }
figure { margin: 0.5em 0; } svg { max-width: 100%; height: auto; }
p.note { color: #555; font-size: 0.9em; }
"""


def render(report: Mapping[str, Any]) -> str:
    this, other = report["figures"]
    names = [s["name"] for s in report["sets"]]
    marks = {(d["figure"], d["where"]): d for d in report["differences"]}
    parts = [f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
             f"<title>Balance: {_e(names[0])}</title><style>{STYLE}</style></head><body>",
             f"<h1>{_e(report['title'])} balance report: {_e(names[0])}</h1>",
             _preamble(report, names)]
    parts.append("<h2>What changed, beyond the noise</h2>")
    if report["marked"]:
        parts.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in report["marked"]) + "</ul>")
    else:
        parts.append("<p>No difference between the two sets is larger than its noise at this number of games.</p>")
    parts.append("<h2>Seat advantage</h2><p class='note'>Win rate of each seat (a shared win split), "
                 "95% Wilson interval; the dotted line is an even share.</p>")
    parts.append(_svg(_seat_plot(this, other, names)))
    parts.append(_seat_table(this, other, marks))
    parts.append("<h2>Scores</h2><p class='note'>Boxes from the 25th to the 75th percentile, whiskers from "
                 "the 10th to the 90th, the line the median.</p>")
    parts.append(_svg(_box_plot(this, other, names, "scores", "score")))
    parts.append(_spread_table(this, other, marks, "scores", per_seat=True))
    parts.append("<h2>Game length</h2>")
    parts.append(_svg(_length_plot(this, other, names)))
    for figure in ("rounds", "actions"):
        parts.append(f"<h3>{figure.capitalize()}</h3>" + _spread_table(this, other, marks, figure, per_seat=False))
    parts.append("<h2>How the games ended</h2>")
    parts.append(_end_table(this, other, marks))
    parts.append("<h2>Cards</h2><p class='note'>For each card: the share of the games it was in play in "
                 "which a seat did this with it (95% interval), and the win rate of the seats that used it "
                 "against the seats that did not (over every player count). A plot shows the cards that were "
                 "ever so used; &ndash; in the table: never, in either set.</p>")
    for verb in _verbs(this):
        parts.append(f"<h3>{_e(verb.capitalize())}</h3>")
        if _done(this, other, verb):
            parts.append(_svg(_card_plot(this, other, names, verb)))
        else:
            parts.append(f"<p>No card was {_e(verb)} in either set's games.</p>")
    parts.append(_card_table(this, other, marks))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _pct(r: Mapping[str, float]) -> str:
    return f"{r['rate']:.0%} ({r['low']:.0%}&ndash;{r['high']:.0%})"


def _preamble(report: Mapping[str, Any], names: Sequence[str]) -> str:
    sets = report["sets"]
    m = report["method"]
    return (f"<p><span class='this'>&#9632; {_e(names[0])}</span> ({_e(sets[0]['folder'])}, content "
            f"{sets[0]['content_hash'][:12]}) against <span class='other'>&#9632; {_e(names[1])}</span> "
            f"({_e(sets[1]['folder'])}, content {sets[1]['content_hash'][:12]}).</p>"
            f"<p>{report['games']} bot games of each set ({_e(', '.join(report['bots']))}), at "
            f"{_e(', '.join(map(str, report['players'])))} players in turn, seed {report['seed']}: "
            f"{_e(m['matches'])}.</p>"
            f"<p class='note'>Intervals: {_e(m['interval'])}. Differences: rates by {_e(m['rates'])}; means by "
            f"{_e(m['means'])}; each figure tested on its own, so about one in twenty is marked by chance. "
            f"Flags: {_e(m['flags'])}.</p>")


def _cell(text: str, mark: Mapping[str, Any] | None) -> str:
    if mark is not None and mark["marked"]:
        return f"<td class='marked' title='z = {mark['z']:+.2f}'>{text} &#9650;</td>"
    return f"<td>{text}</td>"


def _seat_table(this, other, marks) -> str:
    rows = ["<table><tr><th>players, seat</th><th>this set</th><th>compared with</th><th>z</th></tr>"]
    for p, seats in this["seat_advantage"].items():
        for s, a in enumerate(seats):
            b = other["seat_advantage"].get(p, [None] * len(seats))[s]
            mark = marks.get(("seat_advantage", f"{p} players, seat {s + 1}"))
            rows.append(f"<tr><td>{p} players, seat {s + 1}</td>{_cell(_pct(a), mark)}"
                        f"<td>{_pct(b) if b else '&ndash;'}</td><td>{_z(mark)}</td></tr>")
    return "".join(rows) + "</table>"


def _z(mark) -> str:
    return f"{mark['z']:+.2f}" if mark else "&ndash;"


def _spread_table(this, other, marks, figure: str, per_seat: bool) -> str:
    rows = ["<table><tr><th></th><th>mean (sd) here</th><th>median</th><th>10th&ndash;90th</th>"
            "<th>mean (sd) compared</th><th>z</th></tr>"]
    for p, value in this[figure].items():
        items = list(enumerate(value)) if per_seat else [(None, value)]
        for s, a in items:
            where = f"{p} players" + (f", seat {s + 1}" if s is not None else "")
            theirs = other[figure].get(p)
            b = (theirs[s] if s is not None else theirs) if theirs else None
            mark = marks.get((figure, where))
            rows.append(f"<tr><td>{where}</td>{_cell(_mean(a), mark)}"
                        f"<td>{a['p50']:g}</td><td>{a['p10']:g}&ndash;{a['p90']:g}</td>"
                        f"<td>{_mean(b) if b else '&ndash;'}</td><td>{_z(mark)}</td></tr>")
    return "".join(rows) + "</table>"


def _mean(s: Mapping[str, float]) -> str:
    return f"{s['mean']:.1f} ({s['sd']:.1f})"


def _end_table(this, other, marks) -> str:
    rows = ["<table><tr><th>players: end condition</th><th>this set</th><th>compared with</th><th>z</th></tr>"]
    for p, ends in this["end_conditions"].items():
        theirs = other["end_conditions"].get(p, {})
        for end in sorted(set(ends) | set(theirs)):
            where = f"{p} players: {end}"
            mark = marks.get(("end_conditions", where))
            rows.append(f"<tr><td>{_e(where)}</td>{_cell(_pct(ends[end]) if end in ends else '0%', mark)}"
                        f"<td>{_pct(theirs[end]) if end in theirs else '0%'}</td><td>{_z(mark)}</td></tr>")
    return "".join(rows) + "</table>"


def _verbs(figs) -> list[str]:
    return sorted({v for c in figs["cards"].values() for v in c["verbs"]})


def _times(figs, card: str, verb: str) -> int:
    c = figs["cards"].get(card)
    return c["verbs"][verb]["times"] if c is not None and verb in c["verbs"] else 0


def _done(this, other, verb: str) -> list[str]:
    """The cards that were ever ``verb`` in either set's games: a verb that is
    not a card's (a notecard is never "used" like a tool) is left off its rows."""
    return [c for c in this["cards"] if _times(this, c, verb) or _times(other, c, verb)]


def _card_table(this, other, marks) -> str:
    verbs = _verbs(this)
    head = "".join(f"<th>{_e(v)} here</th><th>compared</th>" for v in verbs)
    rows = [f"<table><tr><th>card</th>{head}<th>its users won</th><th>the others won</th>"
            f"<th>users compared</th><th>flags</th></tr>"]
    for card, a in this["cards"].items():
        b = other["cards"].get(card)
        cells = []
        for v in verbs:
            if not (_times(this, card, v) or _times(other, card, v)):
                cells.append("<td>&ndash;</td><td>&ndash;</td>")
                continue
            mark = marks.get(("cards", f"{card}: {v}"))
            cells.append(_cell(_pct(a["verbs"][v]), mark))
            cells.append(f"<td>{_pct(b['verbs'][v]) if b and v in b['verbs'] else '&ndash;'}</td>")
        mark = marks.get(("cards", f"{card}: win rate of its users"))
        flags = "; ".join(a.get("flags", []))
        rows.append(f"<tr><td>{_e(a['name'])} <small>({_e(card)})</small></td>{''.join(cells)}"
                    f"{_cell(_pct(a['win_used']), mark)}<td>{_pct(a['win_not'])}</td>"
                    f"<td>{_pct(b['win_used']) if b else '&ndash;'}</td><td class='flag'>{_e(flags)}</td></tr>")
    return "".join(rows) + "</table>"


# --- plots ---------------------------------------------------------------------------
def _svg(fig) -> str:
    buf = io.StringIO()
    with plt.rc_context({"svg.hashsalt": "labkit-balance", "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buf.getvalue()
    text = text[text.index("<svg"):]  # no XML declaration or DOCTYPE inside a page
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)  # its RDF names a web address
    return f"<figure>{text}</figure>"


def _seat_plot(this, other, names):
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
    axes[0][-1].legend(fontsize=7, loc="upper right")
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


def _box_plot(this, other, names, figure: str, what: str):
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


def _length_plot(this, other, names):
    fig, axes = plt.subplots(1, 2, figsize=(8, 2.8), squeeze=False)
    for ax, figure in zip(axes[0], ("rounds", "actions")):
        counts = list(this[figure])
        a = [_stats(this[figure][p], p) for p in counts]
        b = [_stats(other[figure][p], p) for p in counts if p in other[figure]]
        _bxp(ax, a, b, [f"{p} players" for p in counts])
        ax.set_ylabel(figure)
    fig.tight_layout()
    return fig


def _card_plot(this, other, names, verb: str):
    cards = _done(this, other, verb)
    fig, ax = plt.subplots(figsize=(7, 1.3 + 0.16 * max(len(cards), 1)))
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
    ax.set_yticklabels([this["cards"][c]["name"] for c in cards], fontsize=6)
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"share of games in which it was {verb}" if verb.endswith("ed") else f"share of games: {verb}")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig
