/* Organic Soup's reaction form: steppers, "Find a reaction" (asks the
 * server's reaction finder and fills the products), and "React" (builds
 * the react action and sends it through the house's gestures,
 * window.labkit.submit). The referee judges it: a refusal comes back next
 * to the form, and the counts chosen are put back so the player can
 * correct them. */
(function () {
  "use strict";

  var saved = null;   // {key, values: {input id: value}} of the form in progress

  function form() { return document.getElementById("react-form"); }
  function inputs(kind) {
    var f = form();
    return f ? Array.prototype.slice.call(f.querySelectorAll('input[data-kind="' + kind + '"]')) : [];
  }
  function count(input) {
    var n = parseInt(input.value, 10);
    return isNaN(n) || n < 0 ? 0 : n;
  }
  function remember() {
    var f = form();
    if (!f) return;
    var stale = document.getElementById("react-error");   // the referee's answer to the last try
    if (stale && saved && saved.key === f.dataset.formKey) stale.remove();
    var values = {};
    f.querySelectorAll("input[data-kind]").forEach(function (el) { if (count(el)) values[el.id] = count(el); });
    saved = { key: f.dataset.formKey, values: values };
  }
  function restore() {
    var f = form();
    if (!f || !saved || saved.key !== f.dataset.formKey) return;
    Object.keys(saved.values).forEach(function (id) {
      var el = document.getElementById(id);
      if (el) el.value = saved.values[id];
    });
  }

  function reaction() {
    var ingredients = inputs("ingredient").filter(count).map(function (el) {
      return { seat: parseInt(el.dataset.seat, 10), recipe: el.dataset.recipe, count: count(el) };
    });
    var products = {};
    inputs("product").filter(count).forEach(function (el) { products[el.dataset.recipe] = count(el); });
    return { type: "react", ingredients: ingredients, products: products };
  }

  function say(text) {
    var out = document.getElementById("find-result");
    if (out) out.textContent = text;
  }

  function find() {
    var f = form();
    var action = reaction();
    if (!action.ingredients.length) { say("Choose the ingredients first."); return; }
    var url = f.dataset.findUrl + "?ingredients=" + encodeURIComponent(JSON.stringify(action.ingredients)) +
      "&products=" + encodeURIComponent(JSON.stringify(action.products));
    say("Looking for a reaction…");
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (answer.error) { say(answer.error); return; }
        if (answer.found) {
          inputs("product").forEach(function (el) { el.value = answer.products[el.dataset.recipe] || 0; });
          remember();
        }
        say(answer.message);
      })
      .catch(function () { say("The table's server cannot be reached."); });
  }

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    var step = t.closest("#react-form [data-step]");
    if (step) {
      var input = step.parentElement.querySelector("input");
      var next = count(input) + parseInt(step.dataset.step, 10);
      var max = parseInt(input.max, 10);
      input.value = Math.max(0, isNaN(max) ? next : Math.min(max, next));
      remember();
      return;
    }
    if (t.closest("[data-react-find]")) { find(); return; }
    if (t.closest("[data-react-clear]")) {
      inputs("ingredient").concat(inputs("product")).forEach(function (el) { el.value = 0; });
      remember();
      say("");
      return;
    }
    if (t.closest("[data-react-send]")) {
      remember();
      window.labkit.submit(reaction(), "react");
    }
  });
  document.addEventListener("input", function (evt) {
    if (evt.target.closest && evt.target.closest("#react-form")) remember();
  });
  document.addEventListener("htmx:afterSwap", restore);
})();
