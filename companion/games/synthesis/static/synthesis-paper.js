/* Tapping in a paper Synthesis board (templates/synthesis/paper.html): a
 * cell of the volume table or an elemental box takes the chosen marker's
 * colour (tapped again, it is cleared) in place, in the form's fields that
 * the server reads (companion/games/synthesis/paper.py); once the taps
 * pause, htmx asks the server for the finding. Nothing here checks a rule:
 * without this script each cell is a submit button and the server paints it. */
(function () {
  "use strict";
  var PAUSE = 600;   // ms: one request for a run of taps (the paper tools are rate limited)
  var timer = null;

  function form() { return document.getElementById("syn-paper-form"); }

  function ask(now) {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      if (window.htmx && form()) window.htmx.trigger(form(), "syn-changed");
    }, now ? 0 : PAUSE);
  }

  function paint(button, name, index) {
    var f = form();
    var field = f.querySelector('input[type="hidden"][name="' + name + '"]');
    var chosen = f.querySelector('input[name="brush"]:checked');
    var brush = chosen ? chosen.value : ".";
    var cells = field.value.split("");
    while (cells.length <= index) cells.push(".");
    cells[index] = (brush === "." || cells[index] === brush) ? "." : brush;
    field.value = cells.join("").replace(/\.+$/, "");
    var marker = cells[index] === "." ? null : f.querySelector('input[name="brush"][value="' + cells[index] + '"]');
    button.classList.toggle("filled", !!marker);
    if (marker) {
      button.style.setProperty("--ink", marker.dataset.ink);
      button.style.setProperty("--on", marker.dataset.on);
    } else {
      button.style.removeProperty("--ink");
      button.style.removeProperty("--on");
    }
    button.textContent = marker ? marker.dataset.letter : "";
    button.setAttribute("aria-label", button.dataset.what + ": " + (marker ? marker.dataset.colour : "empty"));
  }

  document.addEventListener("click", function (evt) {
    if (!form()) return;
    var cell = evt.target.closest("#syn-paper-form [data-cell]");
    var box = cell ? null : evt.target.closest("#syn-paper-form [data-box]");
    if (!cell && !box) return;
    evt.preventDefault();   // painted here, not posted as a tap
    var at = (cell || box).dataset[cell ? "cell" : "box"].split(":");
    paint(cell || box, (cell ? "t" : "e_") + at[0], parseInt(at[1], 10) - 1);
    ask(false);
  });
  // A fix from the photo's list (companion/static/paper-photo.js): "cell 3:2" or "box circle:1"
  // set to a colour letter, or emptied.
  document.addEventListener("paper-fix", function (evt) {
    var f = form(), d = evt.detail;
    if (!f || (d.kind !== "cell" && d.kind !== "box")) return;
    var at = d.name.split(":");
    var button = f.querySelector(d.kind === "cell" ? '[data-cell="' + d.name + '"]' : '[data-box="' + d.name + '"]');
    var field = f.querySelector('input[type="hidden"][name="' + (d.kind === "cell" ? "t" : "e_") + at[0] + '"]');
    if (!button || !field) return;
    var index = parseInt(at[1], 10) - 1;
    var cells = field.value.split("");
    while (cells.length <= index) cells.push(".");
    cells[index] = d.value || ".";
    field.value = cells.join("").replace(/\.+$/, "");
    var marker = d.value ? f.querySelector('input[name="brush"][value="' + d.value + '"]') : null;
    button.classList.toggle("filled", !!marker);
    if (marker) {
      button.style.setProperty("--ink", marker.dataset.ink);
      button.style.setProperty("--on", marker.dataset.on);
    } else {
      button.style.removeProperty("--ink");
      button.style.removeProperty("--on");
    }
    button.textContent = marker ? marker.dataset.letter : "";
    evt.preventDefault();
    ask(true);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var painted = document.getElementById("syn-painted");
    if (painted) painted.value = "1";   // the taps are in the fields: the server does not apply one again
  });
  document.addEventListener("change", function (evt) {
    if (!evt.target.closest("#syn-paper-form") || evt.target.name === "brush") return;
    ask(true);
  });
})();
