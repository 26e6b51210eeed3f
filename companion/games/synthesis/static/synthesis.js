/* Synthesis at the table: choosing the lines of a bond.
 *
 * The server lists every legal placement of the bond in a menu
 * (#syn-placements, one <option> per placement with its lines in
 * data-lines); "Draw this bond" sends the chosen one through the house's
 * gesture (data-act-from). This script only helps choose it:
 * - the loupe (svg.syn-loupe) shows the player's formula up close, every
 *   open line a tap target over 44 px; tapping lines gathers them, and when
 *   they are exactly one legal placement the menu is set to it; after each
 *   tap "Draw this bond" (under the loupe) is on the screen;
 * - "Show a placement" walks through the legal placements that contain the
 *   lines tapped so far, drawing each on the formula;
 * - tapping the formula (svg.syn-formula[data-mine]) moves the loupe there,
 *   and brings the loupe onto the screen.
 * Free bonds use the house's gestures alone (a colour and a line of the
 * loupe). A half-made choice is kept while the phone's task is the same
 * (data-pick-key), whatever other phones do.
 */
(function () {
  "use strict";

  var state = { key: null, base: [], preview: -1, centre: null };

  function byId(id) { return document.getElementById(id); }
  function loupe() { return document.querySelector("svg.syn-loupe"); }
  function overview() { return document.querySelector("svg.syn-formula[data-mine]"); }
  function all(root, selector) { return root ? Array.prototype.slice.call(root.querySelectorAll(selector)) : []; }

  function placements() {
    var select = byId("syn-placements");
    if (!select) return [];
    return Array.prototype.slice.call(select.options).filter(function (o) { return o.value; }).map(function (o) {
      return { value: o.value, lines: (o.dataset.lines || "").split(",") };
    });
  }
  function contains(big, small) { return small.every(function (l) { return big.indexOf(l) >= 0; }); }
  function same(a, b) { return a.length === b.length && contains(a, b); }

  function centreOf(lines) {
    var xs = [], ys = [];
    lines.forEach(function (name) {
      var el = document.querySelector('svg.syn-loupe line[data-line="' + CSS.escape(name) + '"]');
      if (!el) return;
      xs.push((parseFloat(el.getAttribute("x1")) + parseFloat(el.getAttribute("x2"))) / 2);
      ys.push((parseFloat(el.getAttribute("y1")) + parseFloat(el.getAttribute("y2"))) / 2);
    });
    if (!xs.length) return null;
    var sum = function (v) { return v.reduce(function (a, b) { return a + b; }, 0) / v.length; };
    return { x: sum(xs), y: sum(ys) };
  }

  function aim() {
    var svg = loupe();
    if (!svg) return;
    var w = parseFloat(svg.dataset.w), h = parseFloat(svg.dataset.h);
    var c = state.centre || { x: parseFloat(svg.dataset.cx), y: parseFloat(svg.dataset.cy) };
    var x = Math.min(Math.max(c.x - w / 2, -w / 4), parseFloat(svg.dataset.width) - w * 0.75);
    var y = Math.min(Math.max(c.y - h / 2, -h / 4), parseFloat(svg.dataset.height) - h * 0.75);
    svg.setAttribute("viewBox", [x, y, w, h].join(" "));
    var frame = document.querySelector("svg.syn-formula[data-mine] .loupe-frame");
    if (frame) { frame.setAttribute("x", x); frame.setAttribute("y", y); }
  }

  function say(text) {
    var out = byId("syn-pick-status");
    if (out) out.textContent = text;
  }

  function sync() {
    var decision = byId("syn-decision");
    var key = decision ? decision.dataset.pickKey : null;
    if (key !== state.key) { state.key = key; state.base = []; state.preview = -1; }
    var select = byId("syn-placements");
    var list = placements();
    var exact = list.filter(function (p) { return same(p.lines, state.base); })[0];
    var candidates = list.filter(function (p) { return contains(p.lines, state.base); });
    var shown = state.preview >= 0 && candidates.length ? candidates[state.preview % candidates.length] : null;
    if (select) select.value = exact ? exact.value : (shown ? shown.value : "");
    var ghost = shown && !exact ? shown.lines : [];
    all(document, "svg.syn-formula line[data-line]").forEach(function (el) {
      var name = el.dataset.line;
      el.classList.toggle("chosen", state.base.indexOf(name) >= 0);
      el.classList.toggle("ghost", ghost.indexOf(name) >= 0 && state.base.indexOf(name) < 0);
    });
    all(loupe(), ".hit[data-line]").forEach(function (el) {
      el.classList.toggle("on", state.base.indexOf(el.dataset.line) >= 0);
    });
    var draw = byId("syn-draw");
    if (draw) draw.disabled = !(select && select.value);
    if (select) {
      if (!state.base.length && !shown) say("Tap the lines of your bond in the loupe above, or choose it from the list.");
      else if (exact) say(state.base.length + " line" + (state.base.length > 1 ? "s" : "") + ": a legal placement. Draw it, or tap more lines.");
      else if (shown) say("Placement " + (state.preview % candidates.length + 1) + " of " + candidates.length +
                          (state.base.length ? " with the lines you tapped" : "") + ": Draw it, or show another.");
      else if (candidates.length) say(candidates.length + " legal placement" + (candidates.length > 1 ? "s" : "") +
                                      " contain these lines: tap more, or show one.");
      else say("No legal placement has all these lines: tap one again to take it out.");
    }
    aim();
  }

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    var hit = t.closest && t.closest("svg.syn-loupe .hit[data-line]");
    if (hit && byId("syn-placements")) {
      var name = hit.dataset.line;
      var i = state.base.indexOf(name);
      if (i >= 0) state.base.splice(i, 1); else state.base.push(name);
      state.preview = -1;
      sync();
      if (window.labkit && window.labkit.reveal) window.labkit.reveal([byId("syn-draw")]);
      return;
    }
    var mine = t.closest && t.closest("svg.syn-formula[data-mine]");
    if (mine && loupe()) {
      var pt = mine.createSVGPoint();
      pt.x = evt.clientX; pt.y = evt.clientY;
      var local = pt.matrixTransform(mine.getScreenCTM().inverse());
      state.centre = { x: local.x, y: local.y };
      aim();
      // up to the loupe, its top under the top bar: "Draw this bond" under it is on the screen too
      var wrap = loupe().parentElement;
      if (!(window.labkit && window.labkit.onScreen(wrap))) wrap.scrollIntoView({ block: "start", behavior: "smooth" });
      return;
    }
    if (t.closest && t.closest("[data-syn-next]")) {
      state.preview += 1;
      sync();
      var select = byId("syn-placements");
      var chosen = select && select.selectedOptions[0];
      if (chosen && chosen.value) { state.centre = centreOf(chosen.dataset.lines.split(",")) || state.centre; aim(); }
      return;
    }
    if (t.closest && t.closest("[data-syn-clear]")) {
      state.base = []; state.preview = -1;
      sync();
    }
  });

  document.addEventListener("change", function (evt) {
    if (evt.target.id !== "syn-placements") return;
    var chosen = evt.target.selectedOptions[0];
    state.base = chosen && chosen.value ? chosen.dataset.lines.split(",") : [];
    state.preview = -1;
    state.centre = centreOf(state.base) || state.centre;
    sync();
  });

  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("htmx:afterSwap", sync);
  document.addEventListener("htmx:afterSettle", sync);
  document.addEventListener("htmx:sseMessage", sync);
})();
