"""A balance report as one self-contained HTML page, drawn from its JSON
figures alone (:func:`labkit.balance.report`): first the cards to look at
(``look_at``), then the game as a whole (seats, ends, length, lead
changes, the skill ladder), then every card. The plots are
:mod:`labkit.balance_plots`' inline SVG, the tables plain HTML, the style
in the page. No script, no link out: it opens offline and can be mailed as
one file. The same figures draw the same page.
"""

from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

from labkit.balance_plots import box_plot, card_plot, done, length_plot, seat_plot, svg

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.marked { background: #fde2c8; font-weight: bold; }
.look { border: 2px solid #a01818; padding: 0.5em 1em; margin: 0.5em 0; background: #fff8f0; }
.look h3 { margin: 0.2em 0; }
.this { color: #1f6f8b; } .other { color: #c0843b; }
figure { margin: 0.5em 0; } svg { max-width: 100%; height: auto; }
p.note { color: #555; font-size: 0.9em; }
"""
SHOWN = 15
"""Marked figures listed before "and N more"."""


def render(report: Mapping[str, Any]) -> str:
    this, other = report["figures"]
    names = [s["name"] for s in report["sets"]]
    marks = {(d["figure"], d["where"]): d for d in report["differences"]}
    parts = [f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
             f"<title>Balance: {_e(names[0])}</title><style>{STYLE}</style></head><body>",
             f"<h1>{_e(report['title'])} balance report: {_e(names[0])}</h1>",
             _look_at(report), _preamble(report, names)]
    parts.append("<h2>Every difference beyond the noise</h2>")
    if report["marked"]:
        parts.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in report["marked"][:SHOWN]) + "</ul>")
        if len(report["marked"]) > SHOWN:
            parts.append(f"<p>... and {len(report['marked']) - SHOWN} more, marked in the tables below.</p>")
    else:
        parts.append("<p>No figure differs between the two sets beyond its noise, after the correction.</p>")
    parts.append("<h2>Seats</h2><p class='note'>Win rate of each seat (a shared win split), 95% Wilson "
                 "interval; the dotted line is an even share. A seat advantage is named when its test against an "
                 "even share survives the correction.</p>")
    parts.append(_seat_verdicts(this, names[0]) + _seat_verdicts(other, names[1]))
    parts.append(svg(seat_plot(this, other, names)))
    parts.append(_rate_table(this["seat_advantage"], other["seat_advantage"], marks, "seat_advantage", seats=True))
    parts.append(_ladder(report.get("ladder"), names))
    if report.get("ranked"):
        parts.append("<h2>Places</h2><p class='note'>The game's totals rank the seats (codes, not points): the "
                     "share of games each seat finished in each place, never an average of codes.</p>")
        parts.append(_places(this, other))
    else:
        parts.append("<h2>Scores</h2><p class='note'>Boxes from the 25th to the 75th percentile, whiskers from "
                     "the 10th to the 90th, the line the median.</p>")
        parts.append(svg(box_plot(this, other, names, "scores", "score")))
        parts.append(_spread_table(this, other, marks, "scores", per_seat=True))
    parts.append("<h2>Game length and lead changes</h2><p class='note'>Lead changes: how often the leader (one "
                 "seat strictly ahead) changed hands, read as each round began.</p>")
    parts.append(svg(length_plot(this, other, names)))
    for figure in ("rounds", "actions", "lead_changes"):
        parts.append(f"<h3>{figure.replace('_', ' ').capitalize()}</h3>"
                     + _spread_table(this, other, marks, figure, per_seat=False))
    parts.append("<h2>How the games ended</h2>")
    parts.append(_end_table(this, other, marks))
    parts.append(_cards(this, other, names, marks))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _pct(r: Mapping[str, float]) -> str:
    return f"{r['rate']:.0%} ({r['low']:.0%}&ndash;{r['high']:.0%})"


def _look_at(report: Mapping[str, Any]) -> str:
    cards = report["look_at"]
    m = report["method"]
    out = ["<h2>Look here first</h2>"]
    if not cards:
        out.append("<p>No card to look at: no card's figures differ from the other set's beyond the noise, after "
                   f"the correction ({_e(m['correction'])}).</p>")
    effects = {e["card"]: e for e in report.get("leave_one_out") or []}
    for c in cards:
        out.append(f"<div class='look'><h3>{_e(c['name'])} <small>({_e(c['card'])})</small></h3><p>{_e(c['why'])}</p>")
        if c["changed"]:
            out.append("<table><tr><th>file</th><th>field</th><th>compared with</th><th>this set</th></tr>"
                       + "".join(f"<tr><td>{_e(f['file'])}</td><td>{_e(f['field'])}</td><td>{_e(f['other'])}</td>"
                                 f"<td>{_e(f['this'])}</td></tr>" for f in c["changed"]) + "</table>")
        said = [g["said"] + (f" (difference {100 * g['difference']:+.0f} percentage points, {100 * g['low']:+.0f} to "
                             f"{100 * g['high']:+.0f}, {g['level']:.1%} interval)" if g.get("level") else "")
                for g in c["games"]]
        if c["winning"]:
            w = c["winning"]
            said.append(f"winning: {w['said']}; every seat of this set won {w['all_seats']:.0%}")
        effect = effects.get(c["card"])
        if effect:
            said.append("leave one out: " + effect["said"])
        out.append("<ul>" + "".join(f"<li>{_e(s)}</li>" for s in said) + "</ul></div>")
    files = report.get("changed_files") or []
    if files:
        rowed = {f["file"] for fields in report["changed"].values() for f in fields}
        whole = [f for f in files if f not in rowed]
        out.append(f"<p>Files that differ from the other set: {_e(', '.join(files))}"
                   + (f"; {_e(', '.join(whole))} changed no card's row (a change to the game as a whole, or rows "
                      f"only moved: see the game's figures below)" if whole else "") + ".</p>")
    p = report["power"]
    found = f"{p['card_rate']:.0%}"
    if p.get("changed_card_rate") is not None:
        found += f" (for the cards whose rules changed: {p['changed_card_rate']:.0%})"
    seats = ", ".join(f"{v:.0%} at {k} players" for k, v in p["seat_share"].items())
    out.append(f"<p class='note'>What {report['games']} games of each set could find: a change of about {found} in "
               f"a card's rate (a card in play in {p['typical_card_games']} games, rates near 50%), or a seat's win "
               f"rate off an even share by about {seats}, each found 4 times in 5 after the correction "
               f"({p['figures_tested']} figures tested). Smaller changes may be there unseen.</p>")
    return "".join(out)


def _preamble(report: Mapping[str, Any], names: Sequence[str]) -> str:
    sets = report["sets"]
    m = report["method"]
    ran = report.get("ran_on") or {}
    return (f"<p><span class='this'>&#9632; {_e(names[0])}</span> ({_e(sets[0]['folder'])}, content "
            f"{sets[0]['content_hash'][:12]}) against <span class='other'>&#9632; {_e(names[1])}</span> "
            f"({_e(sets[1]['folder'])}, content {sets[1]['content_hash'][:12]}).</p>"
            f"<p>{report['games']} bot games of each set ({_e(', '.join(report['bots']))}), at "
            f"{_e(', '.join(map(str, report['players'])))} players in turn, seed {report['seed']}: "
            f"{_e(m['matches'])}; played {_e(ran.get('said', 'earlier'))}.</p>"
            f"<p class='note'>Intervals: {_e(m['interval'])}. Differences: rates by {_e(m['rates'])}; means by "
            f"{_e(m['means'])}. Correction: {_e(m['correction'])}; marked intervals {_e(m['marked_intervals'])}."
            f"</p>")


def _seat_verdicts(figs, name: str) -> str:
    named = [t for t in figs["seat_tests"] if t["advantage"]]
    if not named:
        return f"<p>{_e(name)}: no seat wins more or less than an even share beyond the noise.</p>"
    return "".join(f"<p><b>{_e(name)}: seat {t['seat']} of {t['players']} "
                   f"{'wins more' if t['rate'] > t['even'] else 'wins less'} than an even share</b>: "
                   f"{t['rate']:.0%} ({t['low']:.0%}&ndash;{t['high']:.0%}) of {t['n']} games against "
                   f"{t['even']:.0%}.</p>" for t in named)


def _ladder(ladder, names) -> str:
    if not ladder:
        return ""
    rows = "".join(f"<li>{_e(n)}: {_e(s)}</li>" for n, s in zip(names, ladder["said"]))
    return (f"<h3>Skill ladder</h3><p class='note'>{ladder['games']} extra games of each set at "
            f"{ladder['players']} players, {_e(ladder['bot'])} against random, seats alternating: how much skill "
            f"beats luck in this set against the other.</p><ul>{rows}</ul>")


def _cell(text: str, mark: Mapping[str, Any] | None) -> str:
    if mark is not None and mark["marked"]:
        return f"<td class='marked' title='p = {mark['p']:.2g}'>{text} &#9650;</td>"
    return f"<td>{text}</td>"


def _p(mark) -> str:
    return f"{mark['p']:.2g}" if mark and mark.get("tested") else "&ndash;"


def _rate_table(this, other, marks, figure: str, seats: bool) -> str:
    rows = ["<table><tr><th>players, seat</th><th>this set</th><th>compared with</th><th>p</th></tr>"]
    for p, rates in this.items():
        for s, a in enumerate(rates):
            b = other.get(p, [None] * len(rates))[s]
            mark = marks.get((figure, f"{p} players, seat {s + 1}"))
            rows.append(f"<tr><td>{p} players, seat {s + 1}</td>{_cell(_pct(a), mark)}"
                        f"<td>{_pct(b) if b else '&ndash;'}</td><td>{_p(mark)}</td></tr>")
    return "".join(rows) + "</table>"


def _places(this, other) -> str:
    rows = ["<table><tr><th>players, seat</th><th>places here (1st, 2nd...)</th><th>compared with</th></tr>"]
    for p, seats in this["ranks"].items():
        for s, a in enumerate(seats):
            b = other.get("ranks", {}).get(p, [None] * len(seats))[s]
            shown = [" / ".join(f"{r['rate']:.0%}" for r in x["shares"]) if x else "&ndash;" for x in (a, b)]
            rows.append(f"<tr><td>{p} players, seat {s + 1}</td><td>{shown[0]}</td><td>{shown[1]}</td></tr>")
    return "".join(rows) + "</table>"


def _spread_table(this, other, marks, figure: str, per_seat: bool) -> str:
    rows = ["<table><tr><th></th><th>mean (sd) here</th><th>median</th><th>10th&ndash;90th</th>"
            "<th>mean (sd) compared</th><th>p</th></tr>"]
    for p, value in this[figure].items():
        items = list(enumerate(value)) if per_seat else [(None, value)]
        for s, a in items:
            where = f"{p} players" + (f", seat {s + 1}" if s is not None else "")
            theirs = other[figure].get(p)
            b = (theirs[s] if s is not None else theirs) if theirs else None
            mark = marks.get((figure, where))
            rows.append(f"<tr><td>{where}</td>{_cell(_mean(a), mark)}"
                        f"<td>{a['p50']:g}</td><td>{a['p10']:g}&ndash;{a['p90']:g}</td>"
                        f"<td>{_mean(b) if b else '&ndash;'}</td><td>{_p(mark)}</td></tr>")
    return "".join(rows) + "</table>"


def _mean(s: Mapping[str, float]) -> str:
    return f"{s['mean']:.1f} ({s['sd']:.1f})"


def _end_table(this, other, marks) -> str:
    rows = ["<table><tr><th>players: end condition</th><th>this set</th><th>compared with</th><th>p</th></tr>"]
    for p, ends in this["end_conditions"].items():
        theirs = other["end_conditions"].get(p, {})
        for end in sorted(set(ends) | set(theirs)):
            where = f"{p} players: {end}"
            mark = marks.get(("end_conditions", where))
            rows.append(f"<tr><td>{_e(where)}</td>{_cell(_pct(ends[end]) if end in ends else '0%', mark)}"
                        f"<td>{_pct(theirs[end]) if end in theirs else '0%'}</td><td>{_p(mark)}</td></tr>")
    return "".join(rows) + "</table>"


def _verbs(figs) -> list[str]:
    return sorted({v for c in figs["cards"].values() for v in c["verbs"]})


def _cards(this, other, names, marks) -> str:
    verbs = _verbs(this)
    parts = ["<h2>Cards</h2><p class='note'>For each card: the share of the games it was in play in which a seat "
             "did this with it (95% interval), and the win rate of the seats that used it. A plot shows the cards "
             "that were ever so used.</p>"]
    for verb in verbs:
        parts.append(f"<h3>{_e(verb.capitalize())}</h3>")
        parts.append(svg(card_plot(this, other, names, verb)) if done(this, other, verb)
                     else f"<p>No card was {_e(verb)} in either set's games.</p>")
    used = {c for v in verbs for c in done(this, other, v)}
    head = "".join(f"<th>{_e(v)} here</th><th>compared</th>" for v in verbs)
    rows = [f"<table><tr><th>card</th>{head}<th>its users won</th><th>compared</th></tr>"]
    for card, a in this["cards"].items():
        if card not in used:
            continue
        b = other["cards"].get(card)
        cells = []
        for v in verbs:
            if card not in done(this, other, v):
                cells.append("<td>&ndash;</td><td>&ndash;</td>")
                continue
            cells.append(_cell(_pct(a["verbs"][v]), marks.get(("cards", f"{card}: {v}"))))
            cells.append(f"<td>{_pct(b['verbs'][v]) if b and v in b['verbs'] else '&ndash;'}</td>")
        mark = marks.get(("cards", f"{card}: win rate of its users"))
        rows.append(f"<tr><td>{_e(a['name'])} <small>({_e(card)})</small></td>{''.join(cells)}"
                    f"{_cell(_pct(a['win_used']), mark)}<td>{_pct(b['win_used']) if b else '&ndash;'}</td></tr>")
    parts.append("".join(rows) + "</table>")
    unused = [a["name"] for c, a in this["cards"].items() if c not in used]
    if unused:
        parts.append(f"<p class='note'>Never used in either set's games ({len(unused)}): "
                     f"{_e(', '.join(unused))}.</p>")
    return "".join(parts)
