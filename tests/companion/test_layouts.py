"""Layouts for every screen, in a real browser (Debian's Chromium, a touch
phone's viewport): a landscape phone notates Lab Notes without scrolling
between its sheet and its buttons, with what the table says in view; on
every game's board on a 390 px phone and a 360 px one no text is under 12 px
(the drawings of a sheet's or a board's panel and the disc too), no control
a thumb taps is under 44 px, no word spills out of its button, no word is
broken between two lines but where a hyphen shows, and the page never
scrolls sideways; Organic Soup's level bands fit each card size, and its
reaction form fits the phone at every step; and after each tap of a move of
two taps, what it needs next is on the screen."""

from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from companion.client import call
from tests.companion.conftest import ONE_ADDRESS, need_htmx
from tests.conftest import Server
from tests.companion.labnotes.robot import robot_move

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]

GAMES = ("engine.synthesis:GAME", "engine.compounded:GAME", "engine.organicsoup:GAME")
PORTRAIT = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
            "device_scale_factor": 1, "bypass_csp": True}   # wait_for_function evaluates strings
LANDSCAPE = dict(PORTRAIT, viewport={"width": 844, "height": 390})
NARROW = dict(PORTRAIT, viewport={"width": 360, "height": 740})
"""Many Android phones: the drawings that scale with the screen are smallest here."""

BAD_BREAKS = r"""
  // The words of a text node laid out on two lines at a point where no hyphen shows:
  // [word, its first line] for each (a link's address breaks anywhere, as browsers show one).
  const badBreaks = (node) => {
    const out = [], range = document.createRange();
    for (const m of node.data.matchAll(/\S{2,}/g)) {
      if (m[0].includes('://')) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (new Set([...range.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top))).size < 2)
        continue;                                // on one line
      let top = null;
      for (let i = 0; i < m[0].length; i++) {
        range.setStart(node, m.index + i);
        range.setEnd(node, m.index + i + 1);
        // the character's own box: a range that starts at a line's end has one there too
        const r = [...range.getClientRects()].filter(b => b.width > 0).pop();
        if (!r) continue;                        // a soft hyphen not drawn
        if (top !== null && r.top > top + 1) {
          if (!'\u00ad-\u2010/'.includes(m[0][i - 1]))
            out.push([m[0].replace(/\u00ad/g, ''), m[0].slice(0, i).replace(/\u00ad/g, '')]);
          break;
        }
        top = r.top;
      }
    }
    return out;
  };
"""

AUDIT = """() => {""" + BAD_BREAKS + """
  // how wide the page is laid out: wider than the phone, and it scrolls sideways
  const out = {small: [], targets: [], overflow: [], broken: [], controls: 0, wide: document.documentElement.scrollWidth};
  const shown = (el) => {
    if (el.closest('[hidden], details:not([open]) > :not(summary), script, style')) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && parseFloat(cs.opacity) > 0;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\\s+/).join('.') : '');
  const path = (el) => {
    const p = [];
    for (let e = el; e && e !== document.body && p.length < 3; e = e.parentElement) p.unshift(name(e));
    return p.join(' > ');
  };
  for (const el of document.querySelectorAll('main *')) {
    const text = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('').trim();
    if (!text || !shown(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {              // user units times the drawing's scale on the screen
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < 11.95) out.small.push([path(el), text.slice(0, 30), Math.round(size * 10) / 10]);
  }
  // A thumb taps these; a control that takes no taps (disabled, pointer-events: none) is not one.
  for (const el of document.querySelectorAll('main :is(button, [data-act], [data-target], summary, a, [data-option], [data-gap])')) {
    if (!shown(el) || el.disabled || getComputedStyle(el).pointerEvents === 'none') continue;
    out.controls += 1;
    const r = el.getBoundingClientRect();
    if (r.width < 44 || r.height < 44)
      out.targets.push([path(el), (el.textContent || '').trim().slice(0, 30), Math.round(r.width), Math.round(r.height)]);
  }
  for (const el of document.querySelectorAll('main :is(button, .button, .die, [data-option])')) {
    if (!shown(el) || el instanceof SVGElement) continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      out.overflow.push([path(el), (el.textContent || '').trim().slice(0, 30), el.scrollWidth, el.clientWidth]);
  }
  // A word the browser had to break between two lines breaks where a hyphen shows: after a
  // soft hyphen (companion/hyphens.py) or a hyphen of its own, not mid-syllable ("Nitrometh|ane").
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el instanceof SVGElement || !shown(el)) continue;
    for (const bad of badBreaks(node)) out.broken.push([path(el), ...bad]);
  }
  return out;
}"""

IN_VIEW = """(sel) => [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length).map(el => {
  const r = el.getBoundingClientRect();
  return {sel: sel, text: (el.textContent || '').trim().slice(0, 40), top: r.top, left: r.left, bottom: r.bottom,
          right: r.right, inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth};
})"""


class Table:
    def __init__(self, base: str, game: str, seed: int, players: int) -> None:
        self.base = base
        status, made = call(base, "POST", "/api/tables", {"game": game, "seed": seed})
        assert status == 201, made
        self.code, self.host = made["code"], made["host_token"]
        self.tokens = [call(base, "POST", f"/api/tables/{self.code}/seats", {"name": name})[1]["token"]
                       for name in ("Ada", "Bo", "Cy")[:players]]
        version = self.state()["version"]
        assert call(base, "POST", f"/api/tables/{self.code}/start", {"version": version}, self.host)[0] == 200

    def state(self, seat: int | None = None) -> dict[str, Any]:
        return call(self.base, "GET", f"/api/tables/{self.code}",
                    token=self.tokens[seat] if seat is not None else None)[1]

    def act(self, seat: int, action: dict[str, Any]) -> None:
        mine = self.state(seat)
        status, out = call(self.base, "POST", f"/api/tables/{self.code}/actions",
                           {"version": mine["version"], "action": action}, self.tokens[seat])
        assert status == 200, out

    def phone(self, browser: Any, seat: int, device: dict[str, Any], host: bool = False) -> Any:
        context = browser.new_context(**device)
        context.add_cookies([{"name": f"labkit_seat_{self.code}", "value": self.tokens[seat], "url": self.base}])
        if host:   # the host's phone: the host bar too
            context.add_cookies([{"name": f"labkit_host_{self.code}", "value": self.host, "url": self.base}])
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{self.base}/t/{self.code}")
        return page


def notating(base: str) -> Table:
    """A Lab Notes table in its first notating: Bo has finished his, Ada is
    still notating, and the host has just undone a move of hers (so every
    phone shows the notice strip)."""
    table = Table(base, "labnotes", 7, 2)
    rnd = random.Random(1)

    def can_notate(seat: int) -> bool:
        return any(a["type"] == "notate" for a in table.state(seat)["actions"])

    for _ in range(40):                     # roll, take the dice, Ada's burner and element chosen
        if can_notate(0):
            break
        now = table.state()
        seat = 0 if 0 in now["to_move"] else now["to_move"][0]
        table.act(seat, robot_move(table.state(seat)["actions"], rnd))
    for _ in range(40):                     # Bo notates and finishes
        if 1 not in table.state()["to_move"]:
            break
        table.act(1, robot_move(table.state(1)["actions"], rnd))
    table.act(0, next(a for a in table.state(0)["actions"] if a["type"] == "notate"))
    status, out = call(base, "POST", f"/api/tables/{table.code}/undo", {"version": table.state()["version"]},
                       table.host)
    assert status == 200, out
    now = table.state()
    assert now["to_move"] == [0] and now["view"]["phase"] == "notate" and can_notate(0), now["to_move"]
    return table


@pytest.fixture(scope="module")
def base(tmp_path_factory: Any) -> Iterator[str]:
    """One server for the module's tests (each plays its own tables): a server's start is most of a short test."""
    from labkit import registry

    if "labnotes" not in registry.games():
        pytest.skip("the Lab Notes engine is not registered")
    need_htmx()
    # every phone of the module is on 127.0.0.1, where a table's phones have addresses of their own
    server = Server(tmp_path_factory.mktemp("layouts") / "instance", games=GAMES, env=ONE_ADDRESS).start()
    yield server.url
    server.stop()


def in_view(page: Any, selector: str) -> list[dict[str, Any]]:
    found = page.evaluate(IN_VIEW, selector)
    assert found, f"nothing shown matches {selector}"
    return found


def test_a_landscape_phone_notates_without_scrolling(browser: Any, base: str) -> None:
    table = notating(base)
    ada = table.phone(browser, 0, LANDSCAPE)
    # The whole compound field, the element buttons, what to notate, your line and the notice: all on the
    # screen at once, the page where it opens.
    for selector in ("svg.sheet[data-mine]", "#control-sheet button[data-option]", "#prompt",
                     "#part-players .your-turn", "#part-notice .notice"):
        for box in in_view(ada, selector):
            assert box["inside"], box
    assert ada.evaluate("scrollY") == 0
    # Bo, done, waits: his line says for whom, with the notice, beside his sheet.
    bo = table.phone(browser, 1, LANDSCAPE)
    waiting = in_view(bo, "#part-players > p.hint")
    assert waiting[0]["text"] == "Waiting for Ada." and waiting[0]["inside"], waiting
    for selector in ("svg.sheet[data-mine]", "#part-notice .notice"):
        for box in in_view(bo, selector):
            assert box["inside"], box

    # Ada notates there in two taps, the page not scrolled: a space, then the element.
    version = ada.evaluate("document.getElementById('live-state').dataset.version")
    space = ada.locator("svg.sheet[data-mine] .space.tappable").first
    number = space.get_attribute("data-space")
    space.tap()
    ada.locator("#control-sheet button[data-option]:not([disabled])").first.tap()
    ada.wait_for_function(f"document.getElementById('live-state').dataset.version !== '{version}'")
    ada.wait_for_selector(f'svg.sheet[data-mine] .space[data-space="{number}"][class*="el-"]', state="attached")
    assert ada.evaluate("scrollY") == 0
    for box in in_view(ada, "#control-sheet .sheet-board"):
        assert box["inside"], box



def test_the_line_and_the_notice_stay_in_view_while_notating_on_a_portrait_phone(browser: Any, base: str) -> None:
    table = notating(base)
    for seat, line in ((0, "#part-players .your-turn"), (1, "#part-players > p.hint")):
        page = table.phone(browser, seat, PORTRAIT)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_function("scrollY > 300")
        for selector in (line, "#part-notice .notice"):
            for box in in_view(page, selector):
                assert box["inside"] and box["top"] >= 50, box   # under the top bar, not behind it


def boards(base: str) -> dict[str, Callable[[], tuple[Table, int]]]:
    """Each game's main board at a moment with its controls out: the table and the seat to look from."""
    def labnotes() -> tuple[Table, int]:
        return notating(base), 0

    def synthesis() -> tuple[Table, int]:
        table = Table(base, "synthesis", 5, 2)
        roller = table.state()["to_move"][0]
        table.act(roller, {"type": "roll"})
        return table, roller

    def compounded() -> tuple[Table, int]:
        table = Table(base, "compounded", 5, 3)
        return table, table.state()["to_move"][0]

    def organicsoup() -> tuple[Table, int]:
        table = Table(base, "organicsoup", 373, 2)
        return table, table.state()["to_move"][0]

    return {"labnotes": labnotes, "synthesis": synthesis, "compounded": compounded, "organicsoup": organicsoup}


@pytest.mark.parametrize("device", [PORTRAIT, NARROW], ids=["390px", "360px"])
@pytest.mark.parametrize("game", ["labnotes", "synthesis", "compounded", "organicsoup"])
def test_a_portrait_phone_reads_and_taps_every_board(browser: Any, base: str, game: str,
                                                     device: dict[str, Any]) -> None:
    table, seat = boards(base)[game]()
    page = table.phone(browser, seat, device, host=True)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")   # and what they hold
    found = page.evaluate(AUDIT)
    assert found["controls"] > 5                 # the check looked at something
    assert found["wide"] <= device["viewport"]["width"], f"the page is {found['wide']} px wide: it scrolls sideways"
    assert not found["small"], f"text under 12 px: {found['small'][:12]}"
    assert not found["targets"], f"tap targets under 44 px: {found['targets'][:12]}"
    assert not found["overflow"], f"text spilling out of its control: {found['overflow'][:12]}"
    assert not found["broken"], f"words broken between lines with no hyphen (word, first line): {found['broken'][:12]}"


@pytest.mark.parametrize("game, board", [("synthesis", "#part-mine"), ("compounded", "#part-grid"),
                                         ("organicsoup", "#part-soup")])
def test_a_tablet_shows_the_board_beside_what_to_do(browser: Any, base: str, game: str, board: str) -> None:
    """The house's layout for a game's board part marked beside (Part.beside): on the left, the rest on the right."""
    table, seat = boards(base)[game]()
    page = table.phone(browser, seat, {"viewport": {"width": 1024, "height": 768}, "has_touch": True})
    boxes = page.evaluate("""(board) => [...document.querySelectorAll('#live > .part')].filter(p => p.getClientRects().length)
      .map(p => ({id: p.id, left: p.getBoundingClientRect().left, beside: p.matches(board)}))""", board)
    (mine,) = [b for b in boxes if b["beside"]]
    others = [b for b in boxes if not b["beside"]]
    assert others and all(b["left"] > mine["left"] + 200 for b in others), boxes


NAMES = {"compounded": ("compounds.csv", ".cell .name"), "organicsoup": ("recipes.csv", ".recipe .name"),
         "labnotes": ("notecards.csv", ".notecard .name")}
"""Each game's card names and where its board shows one."""

EVERY_NAME = """([selector, names]) => {""" + BAD_BREAKS + """
  const broken = [];
  let places = 0;
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    places += 1;
    const kept = el.textContent;
    for (const name of names) {
      el.textContent = name;
      broken.push(...badBreaks(el.firstChild));
    }
    el.textContent = kept;
  }
  return {places, broken};
}"""


@pytest.mark.parametrize("device", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
@pytest.mark.parametrize("game", NAMES)
def test_every_card_name_breaks_only_where_a_hyphen_shows(browser: Any, base: str, game: str,
                                                           device: dict[str, Any]) -> None:
    """Every name in the game's card data, put in turn in each place its
    board shows a card's name (at that place's own width and font, on a
    phone held either way): a name too long for its line breaks where a
    hyphen shows (companion/hyphens.py), never mid-syllable as
    "Nitrometh|ane" did."""
    from companion.hyphens import soft_hyphens

    file, selector = NAMES[game]
    with open(ROOT / "cardsdata" / game / file, newline="", encoding="utf-8") as rows:
        names = sorted({row["name"] for row in csv.DictReader(rows)})
    table, seat = boards(base)[game]()
    page = table.phone(browser, seat, device, host=True)
    found = page.evaluate(EVERY_NAME, [selector, [soft_hyphens(name) for name in names]])
    assert found["places"] > 0, f"no {selector} shown on the board"
    assert not found["broken"], f"names broken with no hyphen (name, first line): {found['broken'][:12]}"


LEVEL_BANDS = """(levels) => {""" + BAD_BREAKS + """
  // A hand card put in each kind of recipe grid the board has, beside the hand (its width).
  const hand = document.querySelector('.recipes.hand'), card = hand.querySelector('.recipe');
  const out = {places: 0, bad: []};
  for (const kind of ['recipes', 'recipes hand', 'recipes small']) {
    const grid = document.createElement('div');
    grid.className = kind;
    grid.append(card.cloneNode(true));
    hand.after(grid);
    const band = grid.querySelector('.band'), words = band.firstElementChild, pips = band.querySelector('.pips');
    for (const level of levels) {
      out.places += 1;
      words.innerHTML = level.split('/').join('/<wbr>');   // as _recipe.html writes it
      const w = words.getBoundingClientRect(), p = pips.getBoundingClientRect();
      const apart = p.left - w.right >= 3 || p.top >= w.bottom - 1;    // side by side, or the pips under
      if (band.scrollWidth > band.clientWidth + 1 || !apart) out.bad.push([kind, level, Math.round(p.left - w.right)]);
      for (const node of words.childNodes) if (node.nodeType === 3) out.bad.push(...badBreaks(node));
    }
    grid.remove();
  }
  return out;
}"""


@pytest.mark.parametrize("device", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
def test_a_recipe_level_and_its_pips_fit_every_card_size(browser: Any, base: str, device: dict[str, Any]) -> None:
    """Organic Soup's cards name their level in a band beside its pips. On a
    390 px phone "AMINO/NUCLEIC" touched its pips, and on the narrowest cards
    (the recipes in front of a player) it could not fit: every level, in each
    card size, fits its band, apart from its pips or with them under it."""
    from engine.organicsoup.cards import LEVEL_NAMES

    table, seat = boards(base)["organicsoup"]()
    page = table.phone(browser, seat, device, host=True)
    found = page.evaluate(LEVEL_BANDS, sorted(set(LEVEL_NAMES.values())))
    assert found["places"] == 3 * len(set(LEVEL_NAMES.values())), found
    assert not found["bad"], f"a level's band too tight (grid, level, gap px): {found['bad']}"


def tap(control: Any) -> None:
    """A finger's tap as Android makes it: the control takes the focus, then the tap."""
    control.focus()
    control.tap()


def reacting(base: str) -> tuple[Table, int]:
    """An Organic Soup table where the player to move may trigger a reaction:
    each player has built once, and her hand holds Aminoacetonitrile
    (NH2CH2CN) and Glutamine (C5H10N2O3), names and formulas among the
    longest, as products of her reaction form."""
    table = Table(base, "organicsoup", 1, 2)
    for _ in range(2):
        seat = table.state()["to_move"][0]
        builds = [a for a in table.state(seat)["actions"] if a["type"] == "build"]
        table.act(seat, max(builds, key=lambda a: (a["count"], a["recipe"])))
        table.act(seat, next(a for a in table.state(seat)["actions"] if a["type"] == "keep"))
    seat = table.state()["to_move"][0]
    assert {"aminoacetonitrile", "glutamine"} <= set(table.state(seat)["view"]["seats"][seat]["hand"])
    return table, seat


SIDEWAYS = """(width) => {
  // what lies beyond the phone's right edge: the page's width, steppers' buttons and words out of their box
  const out = {wide: document.documentElement.scrollWidth, cut: [], spill: []};
  for (const b of document.querySelectorAll('#react-form .step')) {
    const r = b.getBoundingClientRect();
    if (r.left < 0 || r.right > width) out.cut.push([b.getAttribute('aria-label'), Math.round(r.left), Math.round(r.right)]);
  }
  for (const l of document.querySelectorAll('#react-form .stepper label'))
    if (l.scrollWidth > l.clientWidth + 1) out.spill.push([l.textContent.trim().slice(0, 30), l.scrollWidth, l.clientWidth]);
  return out;
}"""

EVERY_PRODUCT = """([width, cards]) => {""" + BAD_BREAKS + """
  // Each card's name and formula put in turn in a product's stepper, as _steppers.html writes them.
  const label = document.querySelector('#react-form .stepper.product label');
  const name = [...label.childNodes].find(n => n.nodeType === 3), formula = label.querySelector('.formula');
  const kept = [name.data, formula.innerHTML], bad = [];
  for (const [text, runs] of cards) {
    name.data = text + ' ';
    formula.innerHTML = runs;
    const plus = label.parentElement.querySelector('.step[data-step="1"]').getBoundingClientRect();
    if (plus.right > width || document.documentElement.scrollWidth > width || label.scrollWidth > label.clientWidth + 1)
      bad.push([text.replace(/\\u00ad/g, ''), Math.round(plus.right), document.documentElement.scrollWidth]);
    for (const broken of badBreaks(name)) bad.push(broken);
  }
  [name.data, formula.innerHTML] = kept;
  return bad;
}"""


@pytest.mark.parametrize("device", [NARROW, PORTRAIT], ids=["360px", "390px"])
def test_the_reaction_form_fits_the_phone_at_every_step(browser: Any, base: str, device: dict[str, Any]) -> None:
    """Organic Soup's reaction form on a 360 px phone put the Products' "+"
    past the screen's edge and let the page scroll sideways (a hand card's
    long name or formula widened its column): every stepper's buttons stay
    on the screen and the page as wide as the phone, with the form as
    dealt, for every card's name and formula as a product, after a count is
    set, after "Find a reaction" answers and after the referee answers "React"."""
    import re as regex

    from companion.hyphens import soft_hyphens

    width = device["viewport"]["width"]
    table, seat = reacting(base)
    page = table.phone(browser, seat, device, host=True)

    def check(moment: str) -> None:
        found = page.evaluate(SIDEWAYS, width)
        assert found["wide"] <= width and not found["cut"] and not found["spill"], (moment, found)

    check("the form as dealt")
    with open(ROOT / "cardsdata" / "organicsoup" / "recipes.csv", newline="", encoding="utf-8") as rows:
        cards = sorted({(soft_hyphens(r["name"]), regex.sub(r"(\d+)", r"<sub>\1</sub>", r["formula"]))
                        for r in csv.DictReader(rows)})
    assert not page.evaluate(EVERY_PRODUCT, [width, cards])
    check("every card as a product")
    tap(page.locator("#react-form .stepper:not(.product) .step[data-step='1']").first)
    tap(page.locator("#react-form .stepper.product .step[data-step='1']").last)
    check("counts set")
    tap(page.locator("[data-react-find]"))
    page.wait_for_function("(t => t && t.textContent && !t.textContent.startsWith('Looking'))"
                           "(document.getElementById('find-result'))")
    check("the finder's answer")
    version = page.evaluate("document.getElementById('live-state').dataset.version")
    tap(page.locator("[data-react-send]"))
    page.wait_for_function(f"document.getElementById('react-error') || "
                           f"document.getElementById('live-state').dataset.version !== '{version}'")
    check("the referee's answer")


# --- after a tap, what the player taps next is on the screen ---------------------------------

PLACE = """([selector, where]) => {
  // The page scrolled so that this control sits at the screen's bottom edge, or at its top, just under
  // whatever stays stuck there (the top bar, a game's sticky lines): where a finger finds it, and
  // where what it needs next is the furthest away.
  const el = document.querySelector(selector);
  const covered = () => Math.max(0, ...[...document.querySelectorAll('body *')].filter(e => {
    const cs = getComputedStyle(e);
    return (cs.position === 'sticky' || cs.position === 'fixed') && e.getBoundingClientRect().top < innerHeight / 3;
  }).map(e => e.getBoundingClientRect().bottom));
  const box = () => {                    // what shows of it: a drawing shows no more than its frame
    const r = el.getBoundingClientRect(), f = el.ownerSVGElement ? el.ownerSVGElement.getBoundingClientRect() : r;
    return {top: Math.max(r.top, f.top), bottom: Math.min(r.bottom, f.bottom)};
  };
  for (let i = 0; i < 3; i++) {          // sticky lines stick once the page scrolls
    const r = box();
    window.scrollBy(0, where === 'top' ? r.top - covered() - 2 : r.bottom - innerHeight + 2);
  }
  const r = box();
  return {top: Math.round(r.top), bottom: Math.round(r.bottom), covered: Math.round(covered()), scrollY: scrollY};
}"""

SEEN = """(selector) => [...document.querySelectorAll(selector)].some(el => {
  // wholly on the screen, and what a finger there touches is it (not the top bar over it)
  const r = el.getBoundingClientRect();
  if (!r.width || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && el.contains(hit);
})"""

WHERE = """(selector) => [...document.querySelectorAll(selector)].slice(0, 3).map(el => {
  const r = el.getBoundingClientRect();
  return [Math.round(r.top), Math.round(r.bottom), innerHeight];
})"""


SHOWN_WHOLE = """(lines) => lines.every(line => {
  // the loupe shows each line's middle, where a tap lands
  const svg = document.querySelector('svg.syn-loupe').getBoundingClientRect();
  const b = document.querySelector(`svg.syn-loupe .hit[data-line="${line}"]`).getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  return x > svg.left + 12 && x < svg.right - 12 && y > svg.top + 12 && y < svg.bottom - 12;
})"""


def next_is_seen(page: Any, first: str, where: str, then: str) -> None:
    """Tap ``first`` where PLACE puts it: ``then``, what the move needs next, is soon on the screen (and the
    page is no wider than the phone)."""
    placed = page.evaluate(PLACE, [first, where])
    tap(page.locator(first))
    try:
        page.wait_for_function(SEEN, arg=then, timeout=3_000)
    except Exception:
        raise AssertionError(f"after a tap on {first} at the {where} {placed}, {then} is at (top, bottom, screen) "
                             f"{page.evaluate(WHERE, then)}") from None
    wide, width = page.evaluate("[document.documentElement.scrollWidth, screen.width]")
    assert wide <= width, f"after a tap on {first}, the page is {wide} px wide on a {width} px phone"


def claiming(base: str) -> tuple[Table, int]:
    """A Compounded table in the Study phase: the scientist to move may claim a compound."""
    from tests.companion.compounded.conftest import robot

    table, rnd = Table(base, "compounded", 5, 3), random.Random(3)
    for _ in range(200):
        seat = table.state()["to_move"][0]
        mine = table.state(seat)
        kind = (mine["view"]["deciding"] or {}).get("do")
        if kind == "claims" and any(a["type"] == "claim" and "cell" in a for a in mine["actions"]):
            return table, seat
        table.act(seat, robot(mine["actions"], rnd, kind))
    raise AssertionError("no claim reached")


def sent(page: Any, control: str) -> None:
    """Tap ``control``, and the table takes the move."""
    version = page.evaluate("document.getElementById('live-state').dataset.version")
    tap(page.locator(control).first)
    page.wait_for_function(f"document.getElementById('live-state').dataset.version !== '{version}'")


@pytest.mark.parametrize("game", ["labnotes", "synthesis", "compounded"])
def test_after_each_tap_the_next_control_is_on_the_screen(browser: Any, base: str, game: str) -> None:
    """A move of two taps or more (a space, then its element, in Lab Notes; a
    bond's lines, then "Draw this bond", in Synthesis; a compound, then "Claim
    with token 1", in Compounded): after each tap, the control the move needs
    next is on the screen, not under the top bar, however the first was
    placed, on a 360 x 740 phone and a 390 x 844 one. They were a tall sheet,
    a long panel or a card away."""
    for device in (NARROW, PORTRAIT):
        if game == "labnotes":
            table, seat = notating(base), 0
        elif game == "synthesis":
            table, seat = boards(base)["synthesis"]()
        else:
            table, seat = claiming(base)
        page = table.phone(browser, seat, device)
        if game == "labnotes":
            spaces = page.locator("svg.sheet[data-mine] .space.tappable")
            first, last = (f'svg.sheet[data-mine] .space[data-space="{spaces.nth(k).get_attribute("data-space")}"]'
                           for k in (0, -1))
            element = "#control-sheet button[data-option]:not([disabled])"
            next_is_seen(page, last, "bottom", element)
            tap(page.locator(last))                     # taken back: no space chosen
            next_is_seen(page, first, "top", element)
            sent(page, element)
        elif game == "synthesis":
            # a placement shown, then cleared: the loupe looks at its lines, none of them tapped yet
            tap(page.locator("[data-syn-next]"))
            lines = page.evaluate("document.getElementById('syn-placements').selectedOptions[0].dataset.lines")
            tap(page.locator("[data-syn-clear]"))
            lines = lines.split(",")
            assert page.evaluate(SHOWN_WHOLE, lines), lines
            hits = [f'svg.syn-loupe .hit[data-line="{line}"]' for line in lines]
            next_is_seen(page, hits[0], "top", "#syn-draw")
            tap(page.locator("[data-syn-clear]"))
            for k, hit in enumerate(hits):
                next_is_seen(page, hit, "bottom" if k % 2 == 0 else "top", "#syn-draw")
            sent(page, "#syn-draw")
        else:
            cells = page.locator("#cp-grid .cell.tappable")
            first, last = (f'#cp-grid .cell[data-cell="{cells.nth(k).get_attribute("data-cell")}"]' for k in (0, -1))
            claim = "#cp-decision [data-option]:not([disabled])"
            next_is_seen(page, last, "top", claim)
            tap(page.locator(last))
            next_is_seen(page, first, "bottom", claim)
            sent(page, claim)
        page.context.close()
