/* Copy a finished paper Lab Notes sheet by tapping, and keep the JSON
 * (docs/labnotes-sheet-format.md) in the form's textarea. The server scores
 * it; nothing here checks a rule. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var marks = {};   // label -> "H" | "O" | "N" | "C" | "x"
  var bonds = {};   // "A1|A2" -> 1..3
  var selected = null;

  function svg() { return document.querySelector("svg.sheet[data-paper]"); }
  function spaceEl(label) { return svg().querySelector('.space[data-label="' + label + '"]'); }
  function labelOf(index) { return svg().querySelector('.space[data-space="' + index + '"]').dataset.label; }
  function centre(label) {
    var c = spaceEl(label).querySelector("circle:not(.hit)");
    return [parseFloat(c.getAttribute("cx")), parseFloat(c.getAttribute("cy"))];
  }
  function isElement(label) { return ["H", "O", "N", "C"].indexOf(marks[label]) >= 0; }

  function draw() {
    var root = svg();
    root.querySelectorAll(".space").forEach(function (g) {
      var label = g.dataset.label, mark = marks[label] || ".";
      g.setAttribute("class", "space tappable" + (mark === "x" ? " burned" : mark !== "." ? " el-" + mark : "")
        + (label === selected ? " selected" : ""));
      var text = g.querySelector("text:not(.space-label)");
      if (isElement(label)) {
        if (!text) { text = document.createElementNS(NS, "text"); g.appendChild(text); }
        var c = centre(label);
        text.setAttribute("x", c[0]); text.setAttribute("y", c[1]); text.textContent = mark;
      } else if (text) { text.remove(); }
    });
    root.querySelectorAll("g.bond").forEach(function (g) { g.remove(); });
    var first = root.querySelector(".space");
    Object.keys(bonds).forEach(function (key) {
      var ends = key.split("|");
      if (!isElement(ends[0]) || !isElement(ends[1])) { delete bonds[key]; return; }
      var a = centre(ends[0]), b = centre(ends[1]);
      var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
      var ux = dx / len, uy = dy / len, px = -uy, py = ux, r = 0.32;
      var offsets = { 1: [0], 2: [-0.055, 0.055], 3: [-0.09, 0, 0.09] }[bonds[key]];
      var g = document.createElementNS(NS, "g");
      g.setAttribute("class", "bond");
      offsets.forEach(function (o) {
        var line = document.createElementNS(NS, "line");
        line.setAttribute("x1", a[0] + ux * r + px * o); line.setAttribute("y1", a[1] + uy * r + py * o);
        line.setAttribute("x2", b[0] - ux * r + px * o); line.setAttribute("y2", b[1] - uy * r + py * o);
        g.appendChild(line);
      });
      root.insertBefore(g, first);
    });
    root.querySelectorAll("[data-gap]").forEach(function (g) {
      var pair = g.dataset.gap.split(",").map(labelOf);
      g.classList.toggle("live", isElement(pair[0]) && isElement(pair[1]));
    });
    var prompt = document.getElementById("paper-prompt");
    if (prompt) prompt.textContent = selected ? ("Space " + selected + ": what is written there?") : "Tap a space on the sheet.";
    write();
  }

  function write() {
    var sheet = { game: "labnotes", elements: {}, bonds: [], burned: [], trash: [], notecards: [], tool_marks: 0 };
    var name = document.getElementById("paper-player");
    if (name && name.value.trim()) sheet.player = name.value.trim();
    Object.keys(marks).sort().forEach(function (label) {
      if (marks[label] === "x") sheet.burned.push(label);
      else if (isElement(label)) sheet.elements[label] = marks[label];
    });
    Object.keys(bonds).sort().forEach(function (key) {
      var ends = key.split("|");
      sheet.bonds.push([ends[0], ends[1], bonds[key]]);
    });
    document.querySelectorAll("[data-paper-trash]").forEach(function (s) { if (s.value) sheet.trash.push(s.value); });
    var cards = document.querySelectorAll("[data-paper-card]");
    document.querySelectorAll("[data-paper-points]").forEach(function (s, i) {
      if (!s.value) return;
      var entry = { points: parseInt(s.value, 10) };
      if (cards[i] && cards[i].value) entry.notecard = cards[i].value;
      sheet.notecards.push(entry);
    });
    var tm = document.getElementById("paper-marks");
    sheet.tool_marks = tm ? (parseInt(tm.value, 10) || 0) : 0;
    document.getElementById("paper-json").value = JSON.stringify(sheet);
  }

  document.addEventListener("click", function (evt) {
    if (!svg()) return;
    var gap = evt.target.closest("svg.sheet[data-paper] [data-gap]");
    if (gap && gap.classList.contains("live")) {
      var pair = gap.dataset.gap.split(",").map(labelOf).sort();
      var key = pair.join("|");
      bonds[key] = ((bonds[key] || 0) + 1) % 4;
      if (!bonds[key]) delete bonds[key];
      draw();
      return;
    }
    var space = evt.target.closest("svg.sheet[data-paper] .space");
    if (space) {
      selected = selected === space.dataset.label ? null : space.dataset.label;
      draw();
      return;
    }
    var mark = evt.target.closest("[data-paper-mark]");
    if (mark && selected) {
      if (mark.dataset.paperMark === ".") delete marks[selected]; else marks[selected] = mark.dataset.paperMark;
      selected = null;
      draw();
    }
  });
  document.addEventListener("change", function (evt) {
    if (evt.target.closest("[data-paper-trash], [data-paper-points], [data-paper-card], [data-paper-input]")) write();
  });
  document.addEventListener("input", function (evt) {
    if (evt.target.closest("[data-paper-input]")) write();
  });
  // A sheet already written as JSON (read from a photo, or sent back after scoring) is
  // loaded into the taps, so that fixing one mark keeps the others.
  function load(text) {
    var sheet;
    try { sheet = JSON.parse(text); } catch (e) { return false; }
    if (!sheet || typeof sheet !== "object") return false;
    marks = {}; bonds = {};
    Object.keys(sheet.elements || {}).forEach(function (label) { marks[label] = sheet.elements[label]; });
    (sheet.burned || []).forEach(function (label) { marks[label] = "x"; });
    (sheet.bonds || []).forEach(function (b) { if (b && b.length === 3) bonds[[b[0], b[1]].sort().join("|")] = b[2]; });
    document.querySelectorAll("[data-paper-trash]").forEach(function (s, i) { s.value = (sheet.trash || [])[i] || ""; });
    document.querySelectorAll("[data-paper-points]").forEach(function (s, i) {
      var card = (sheet.notecards || [])[i];
      s.value = card && card.points ? String(card.points) : "";
    });
    var tm = document.getElementById("paper-marks");
    if (tm) tm.value = sheet.tool_marks || 0;
    var name = document.getElementById("paper-player");
    if (name && sheet.player) name.value = sheet.player;
    return true;
  }

  // A fix from the photo's list (companion/static/paper-photo.js), applied in place.
  document.addEventListener("paper-fix", function (evt) {
    if (!svg()) return;
    var d = evt.detail, v = d.value;
    if (d.kind === "space") {
      if (v) marks[d.name] = v; else delete marks[d.name];
    } else if (d.kind === "bond") {
      var key = d.name.split(" ").sort().join("|");
      if (parseInt(v, 10)) bonds[key] = parseInt(v, 10); else delete bonds[key];
    } else if (d.kind === "trash") {
      var can = document.querySelectorAll("[data-paper-trash]")[parseInt(d.name, 10) - 1];
      if (can) can.value = v;
    } else if (d.kind === "points" || d.kind === "check") {
      var box = document.querySelectorAll("[data-paper-points]")[parseInt(d.name, 10) - 1];
      if (box && d.kind === "points") box.value = v;
      if (box && d.kind === "check" && v === "false") box.value = "";
    } else if (d.kind === "tool") {
      var tm = document.getElementById("paper-marks");
      if (tm) tm.value = Math.max(0, (parseInt(tm.value, 10) || 0) + (v === "true" ? 1 : -1));
    } else { return; }
    evt.preventDefault();
    draw();
    var form = document.getElementById("paper-form");
    if (window.htmx && form) window.htmx.trigger(form, "submit");
  });

  document.addEventListener("DOMContentLoaded", function () {
    var area = document.getElementById("paper-json");
    if (area && area.value.trim()) { if (load(area.value)) draw(); }
    else draw();
  });
})();
