/* labkit companion: the little the pages need beyond htmx.
 * - keeps the screen awake during play (Screen Wake Lock API);
 * - never lets an older poll answer replace a newer table;
 * - day/night colours;
 * - composed actions: tap a space, then an element (the note sheet);
 *   the choice survives a refresh caused by another phone.
 */
(function () {
  "use strict";

  // --- day and night --------------------------------------------------------
  var root = document.documentElement;
  try {
    var saved = localStorage.getItem("labkit-theme");
    if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  } catch (e) { /* private mode: follow the system */ }
  document.addEventListener("click", function (evt) {
    var toggle = evt.target.closest("[data-theme-toggle]");
    if (!toggle) return;
    var dark = root.getAttribute("data-theme") === "dark" ||
      (!root.getAttribute("data-theme") && window.matchMedia("(prefers-color-scheme: dark)").matches);
    var next = dark ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem("labkit-theme", next); } catch (e) { /* fine */ }
  });

  // --- the screen stays awake while a game is being played -----------------
  var wakeLock = null;
  function playing() {
    var live = document.getElementById("live");
    return !!live && live.dataset.playing === "true";
  }
  function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    if (playing()) {
      if (wakeLock) return;
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }).catch(function () { wakeLock = null; });
    } else if (wakeLock) {
      wakeLock.release();
      wakeLock = null;
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("click", keepAwake, { passive: true });

  // --- never go back in time -------------------------------------------------
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var live = document.getElementById("live");
    var xhr = evt.detail.xhr;
    if (!live || !xhr || evt.detail.target !== live) return;
    var incoming = parseInt(xhr.getResponseHeader("X-Table-Version"), 10);
    var shown = parseInt(live.dataset.version, 10);
    var fromPoll = (evt.detail.requestConfig && evt.detail.requestConfig.verb === "get");
    if (fromPoll && !isNaN(incoming) && !isNaN(shown) && incoming <= shown) {
      evt.detail.shouldSwap = false;
    }
  });

  // --- an error the server sent instead of a page ------------------------------
  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail.xhr;
    var text = (xhr && xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0
      ? xhr.responseText : "The server could not do that (" + (xhr ? xhr.status : "?") + ").";
    showBanner(text);
  });
  document.addEventListener("htmx:sendError", function () {
    showBanner("The table's server cannot be reached. Check the Wi-Fi; the page keeps trying.");
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail.successful) {
      var old = document.getElementById("banner");
      if (old && old.dataset.kind === "network") old.remove();
    }
  });
  function showBanner(text) {
    var old = document.getElementById("banner");
    if (old) old.remove();
    var box = document.createElement("div");
    box.id = "banner";
    box.className = "notice banner";
    box.setAttribute("role", "alert");
    box.dataset.kind = text.indexOf("cannot be reached") >= 0 ? "network" : "error";
    box.textContent = text + " ";
    var reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload";
    reload.addEventListener("click", function () { window.location.reload(); });
    box.appendChild(reload);
    document.querySelector("main").prepend(box);
  }

  // --- composed actions (the note sheet) ------------------------------------
  // A choice in progress, kept across swaps caused by other phones:
  // {space: "12", label: "C1"} (a space tapped first) or
  // {action: "{...}"} (an element or Burn tapped first).
  var pending = null;

  function live() { return document.getElementById("live"); }

  function submit(action, origin) {
    var form = document.getElementById("act-form");
    var l = live();
    if (!form || !l) return;
    form.elements.version.value = l.dataset.version;
    form.elements.action.value = JSON.stringify(action);
    form.elements.origin.value = origin || "actions";
    pending = null;
    if (form.requestSubmit) { form.requestSubmit(); }
    else if (window.htmx) { window.htmx.trigger(form, "submit"); }
    else { form.submit(); }
  }
  window.labkit = { submit: submit };

  function spacesOf(button) {
    return (button.dataset.spaces || "").split(",").filter(function (x) { return x !== ""; });
  }

  function paint() {
    var l = live();
    if (!l) return;
    l.querySelectorAll(".space.selected").forEach(function (el) { el.classList.remove("selected"); });
    l.querySelectorAll(".space.target").forEach(function (el) { el.classList.remove("target"); });
    var buttons = Array.prototype.slice.call(l.querySelectorAll("button[data-space-action]"));
    if (pending && pending.space !== undefined) {
      var sp = l.querySelector('svg.sheet[data-mine] .space[data-space="' + pending.space + '"]');
      if (!sp || !sp.classList.contains("tappable")) { pending = null; } else { sp.classList.add("selected"); }
    }
    if (pending && pending.action !== undefined) {
      var armed = buttons.filter(function (b) { return b.dataset.spaceAction === pending.action; })[0];
      if (!armed) { pending = null; }
      else {
        spacesOf(armed).forEach(function (k) {
          var el = l.querySelector('svg.sheet[data-mine] .space[data-space="' + k + '"]');
          if (el) el.classList.add("target");
        });
      }
    }
    buttons.forEach(function (b) {
      var on = pending && pending.space !== undefined && spacesOf(b).indexOf(String(pending.space)) >= 0;
      b.disabled = !!(pending && pending.space !== undefined && !on);
      b.setAttribute("aria-pressed", pending && pending.action === b.dataset.spaceAction ? "true" : "false");
    });
    var prompt = l.querySelector("[data-picker-prompt]");
    if (prompt) {
      if (pending && pending.space !== undefined) { prompt.textContent = "Space " + pending.label + ": what goes there?"; }
      else if (pending && pending.action !== undefined) { prompt.textContent = "Now tap a space for it."; }
      else { prompt.textContent = prompt.dataset.idle || ""; }
    }
  }

  function withSpace(actionText, space) {
    var action = JSON.parse(actionText);
    action.space = parseInt(space, 10);
    return action;
  }

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    var space = t.closest("svg.sheet[data-mine] .space");
    if (space) {
      if (!space.classList.contains("tappable")) return;
      if (pending && pending.action !== undefined) {
        var armed = live().querySelector('button[data-space-action="' + CSS.escape(pending.action) + '"]');
        if (armed && spacesOf(armed).indexOf(space.dataset.space) >= 0) {
          submit(withSpace(pending.action, space.dataset.space), "sheet");
          return;
        }
      }
      pending = (pending && pending.space === space.dataset.space) ? null
        : { space: space.dataset.space, label: space.dataset.label };
      paint();
      return;
    }
    var gap = t.closest("svg.sheet[data-mine] [data-gap]");
    if (gap) {
      var pair = gap.dataset.gap.split(",").map(function (x) { return parseInt(x, 10); });
      submit({ type: "bond", spaces: pair }, "sheet");
      return;
    }
    var spaceAction = t.closest("button[data-space-action]");
    if (spaceAction) {
      if (pending && pending.space !== undefined) {
        submit(withSpace(spaceAction.dataset.spaceAction, pending.space), "sheet");
      } else {
        pending = (pending && pending.action === spaceAction.dataset.spaceAction) ? null
          : { action: spaceAction.dataset.spaceAction };
        paint();
      }
      return;
    }
    var reroll = t.closest("button[data-reroll]");
    if (reroll) {
      var dice = Array.prototype.map.call(document.querySelectorAll('input[name="reroll-die"]:checked'),
        function (el) { return parseInt(el.value, 10); });
      submit({ type: "reroll", dice: dice }, reroll.dataset.origin || "dice");
      return;
    }
    var from = t.closest("button[data-action-from]");
    if (from) {
      var select = document.querySelector(from.dataset.actionFrom);
      if (select && select.value) submit(JSON.parse(select.value), from.dataset.origin || "actions");
      return;
    }
    var direct = t.closest("button[data-action]");
    if (direct) {
      submit(JSON.parse(direct.dataset.action), direct.dataset.origin || "actions");
    }
  });

  // Keyboard: spaces and gaps in the SVG are focusable; Enter or Space taps them.
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" && evt.key !== " ") return;
    var el = evt.target.closest && evt.target.closest("svg.sheet [tabindex]");
    if (!el) return;
    evt.preventDefault();
    el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });

  // A short buzz when it becomes your move (phones that allow it).
  var myTurn = null;
  function buzz() {
    var l = live();
    var now = !!l && l.dataset.myTurn === "true";
    if (myTurn === false && now && navigator.vibrate) navigator.vibrate(120);
    myTurn = now;
  }

  document.addEventListener("htmx:afterSwap", function () { paint(); keepAwake(); buzz(); });
  document.addEventListener("DOMContentLoaded", buzz);
  document.addEventListener("DOMContentLoaded", paint);
})();
