/* labkit companion: the little the pages need beyond htmx. It knows no
 * game: the server describes every control with data attributes.
 * - the table's changes arrive on a stream (htmx's SSE extension) as the
 *   parts that changed, morphed in place (idiomorph): an open panel stays
 *   open, a half-made choice stays made, the scroll stays where it is; a
 *   browser that cannot hold a stream polls instead;
 * - never lets an older answer replace a newer table;
 * - every action carries an id, so a retried request is applied once;
 * - keeps the screen awake during play (Screen Wake Lock API);
 * - day/night colours;
 * - the gestures, from data attributes the server writes:
 *     data-act='{...}'                      send this action as it is;
 *     data-option='{...}' data-fill="field" data-values="1,2"
 *                                           an action missing one field: it
 *                                           is completed by a target, in
 *                                           either order (tap the target
 *                                           first, or the option first);
 *     data-target="field" data-value="12" data-label="C1"
 *                                           a place that fills that field;
 *     data-act-collect='{...}' data-collect="field"
 *                                           the values of the ticked boxes
 *                                           [data-collect-into="field"] as a list;
 *     data-act-from="#select"               the action chosen in a <select>;
 *     data-confirm="sentence"               (with data-act) asked first.
 *   A choice in progress survives a refresh caused by another phone, and
 *   what completes it is brought onto the screen after the first tap.
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

  // --- the table's state (version, whose move) ------------------------------------
  function tableState() { return document.getElementById("live-state"); }
  function shownVersion() {
    var st = tableState();
    return st ? parseInt(st.dataset.version, 10) : NaN;
  }

  // A morph draws what the server drew, the control under the player's
  // finger included: a focused button gets its new label with its new action
  // (idiomorph's ignoreActiveValue kept the focused element's old children,
  // its label and drawing, under its new data-act). What stays the player's:
  // - a <details> panel's "open";
  // - what they are typing or choosing in the focused field, while the new
  //   page has the same field there (same id, name and type; a box for the
  //   same value): its text, its tick, or its chosen option if still offered;
  // - a half-made gesture (`pending` below), while it is still offered.
  var held = null;   // {el, value}: the focused field during a morph
  function fieldOf(el) {
    return el && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && el.type !== "hidden";
  }
  function sameField(el, next) {
    if (!next.getAttribute) return false;
    var box = el.type === "checkbox" || el.type === "radio";
    return ["id", "name", "type"].concat(box ? ["value"] : []).every(function (a) {
      return el.getAttribute(a) === next.getAttribute(a);
    });
  }
  function keepMine() {
    if (!window.Idiomorph) return;
    var defaults = window.Idiomorph.defaults;
    defaults.ignoreActive = false;
    defaults.ignoreActiveValue = false;
    defaults.callbacks.beforeNodeMorphed = function (el, next) {
      if (el === document.activeElement && fieldOf(el) && sameField(el, next)) held = { el: el, value: el.value };
      return true;
    };
    defaults.callbacks.beforeAttributeUpdated = function (name, el) {
      if (name === "open" && el.tagName === "DETAILS") return false;
      return !(held && held.el === el && (name === "value" || name === "checked"));
    };
    defaults.callbacks.afterNodeMorphed = function (el) {
      if (!held || held.el !== el) return;
      // A menu's options are morphed like the rest; the one chosen stays chosen while it is offered.
      if (el.tagName === "SELECT" && Array.prototype.some.call(el.options, function (o) { return o.value === held.value; })) {
        el.value = held.value;
      }
      held = null;
    };
  }
  document.addEventListener("DOMContentLoaded", keepMine);

  // --- a choice made before the scripts arrived is still sent ---------------
  // The page is drawn before its deferred scripts run (on a slow network,
  // seconds before), and a form that sends itself on "change" hears nothing
  // until htmx has read it. A menu changed in that gap showed a choice the
  // table never got; such a form is sent once htmx has it. (Its forms say
  // autocomplete="off", so a value the browser restores is never one of these.)
  function changedBeforeUs(el) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT" && !el.multiple) {   // with no option marked, the first is the default
      var marked = Array.prototype.findIndex.call(el.options, function (o) { return o.defaultSelected; });
      return el.selectedIndex !== Math.max(marked, 0);
    }
    return fieldOf(el) && el.value !== el.defaultValue;
  }
  function sendEarlyChoices() {   // after htmx's own start, which it put on this same event first
    if (!window.htmx) return;
    document.querySelectorAll('form[hx-trigger~="change"]').forEach(function (form) {
      if (Array.prototype.some.call(form.elements, changedBeforeUs)) window.htmx.trigger(form, "change");
    });
  }
  document.addEventListener("DOMContentLoaded", sendEarlyChoices);

  // --- the screen stays awake while a game is being played -----------------
  var wakeLock = null;
  function playing() {
    var st = tableState();
    return !!st && st.dataset.playing === "true";
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
  // An answer to an action can arrive after the stream brought a newer
  // version (someone else moved meanwhile): the older one is not shown.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    if (!xhr || !evt.detail.target || evt.detail.target.id !== "live") return;
    var incoming = parseInt(xhr.getResponseHeader("X-Table-Version"), 10);
    var shown = shownVersion();
    var fromPoll = (evt.detail.requestConfig && evt.detail.requestConfig.verb === "get");
    if (!isNaN(incoming) && !isNaN(shown) && (incoming < shown || (fromPoll && incoming === shown))) {
      evt.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    var incoming = parseInt(evt.detail.lastEventId, 10);
    var shown = shownVersion();
    if (!isNaN(incoming) && !isNaN(shown) && incoming < shown) evt.preventDefault();
  });

  // --- a browser that cannot hold a stream polls --------------------------------
  var polling = null;
  function poll() {
    var stream = document.getElementById("stream");
    if (polling || down || !stream || !window.htmx) return;
    var every = parseInt(stream.dataset.pollMs, 10) || 2000;
    polling = window.setInterval(function () {
      var v = shownVersion();
      // htmx answers with a promise: a failed poll is told by htmx:sendError, not left unhandled
      var asked = window.htmx.ajax("GET", stream.dataset.poll + "?since=" + (isNaN(v) ? -1 : v),
        { target: "#live", swap: "morph" });
      if (asked && asked.catch) asked.catch(function () { /* htmx:sendError says it */ });
    }, every);
  }
  function stopPolling() {
    if (polling) { window.clearInterval(polling); polling = null; }
  }
  document.addEventListener("DOMContentLoaded", function () { if (!window.EventSource) poll(); });

  // --- the connection, said on every phone --------------------------------------
  // The stream's error comes at once when the server goes away; a heartbeat
  // event every few seconds tells a silent drop (a phone off the Wi-Fi). A
  // stream refused (429), or one that fails again while the server answers,
  // and the page polls instead: a proxy that blocks streams costs a second.
  //
  // While the server cannot be reached the page stays quiet: the stream is
  // closed (the browser would retry it every second, each retry an error) and
  // one small request asks after the table, less and less often (1 s, 2 s,
  // 3 s, then every 5 s). When it answers, the stream opens again from the
  // version shown, and a move tapped meanwhile is sent then, with the id it
  // was given when tapped (the server applies it once, or says why not).
  var LOST = "The connection to the table was lost: trying again. Moves made now may not arrive.";
  var DOWN = "The table's server cannot be reached: the page keeps asking, quietly. Check the Wi-Fi.";
  var KEPT = "No connection: your move is kept, and sent as soon as the table is back.";
  var streamErrors = 0;
  var lastBeat = Date.now();
  var down = false;         // the server did not answer: the stream is closed and the page asks after it
  var source = null;        // the stream's EventSource, while open
  var streamUrl = null;     // its address, while it is closed
  var probing = null, probeDelay = 0;
  var queued = null;        // {version, action_id, action, origin}: a move tapped while the table was away
  function beat() {   // the stream is alive: whatever said otherwise was wrong by now
    var late = Date.now() - lastBeat;
    lastBeat = Date.now();
    if (late > 1000) found();
  }
  function lost() {
    if (!polling && tableState()) showBanner(LOST, "network");
  }
  function found() {
    var old = document.getElementById("banner");
    if (old && old.dataset.kind === "network") old.remove();
  }
  function closeStream() {
    var stream = document.getElementById("stream");
    if (stream && stream.hasAttribute("sse-connect")) {
      // the extension reconnects a closed stream by this attribute: without it, it stays closed
      streamUrl = stream.getAttribute("sse-connect");
      stream.removeAttribute("sse-connect");
    }
    if (source) { source.close(); source = null; }
  }
  function openStream() {
    var stream = document.getElementById("stream");
    if (!stream || !streamUrl || !window.htmx) return;
    var v = shownVersion();
    var fresh = stream.cloneNode(true);   // a new element: htmx and its extension start its stream afresh
    fresh.setAttribute("sse-connect", streamUrl.replace(/([?&]since=)-?\d+/, "$1" + (isNaN(v) ? -1 : v)));
    streamUrl = null;
    stream.replaceWith(fresh);
    window.htmx.process(fresh);
  }
  function goneAway() {
    if (down) return;
    down = true;
    stopPolling();
    closeStream();
    showBanner(queued ? KEPT : DOWN, "network");
    probeDelay = 0;
    probe();
  }
  function probe() {
    var stream = document.getElementById("stream");
    if (!stream || probing) return;
    probeDelay = Math.min(probeDelay + 1000, 5000);
    probing = window.setTimeout(function () {
      var v = shownVersion();
      var controller = window.AbortController ? new AbortController() : null;
      var limit = controller ? window.setTimeout(function () { controller.abort(); }, 4000) : null;
      fetch(stream.dataset.poll + "?since=" + (isNaN(v) ? -1 : v),
            { cache: "no-store", credentials: "same-origin", signal: controller ? controller.signal : undefined })
        .then(function (answer) {
          probing = null;
          if (limit) window.clearTimeout(limit);
          if (answer.status >= 500 || answer.status === 0) { probe(); return; }
          back();
        })
        .catch(function () { probing = null; if (limit) window.clearTimeout(limit); probe(); });
    }, probeDelay);
  }
  function back() {
    if (!down) return;
    down = false;
    streamErrors = 0;
    found();
    if (window.EventSource) openStream(); else poll();
    if (queued) {
      var kept = queued;
      queued = null;
      send(kept);
    }
  }
  document.addEventListener("htmx:sseError", function (evt) {
    var src = evt.detail && evt.detail.source;
    if (down) { if (src) src.close(); return; }
    lost();
    // a stream refused (429) is closed before it ever opened: poll at once
    if (src && src.readyState === 2 && !src.__watched) { poll(); return; }
    if (++streamErrors >= 2) { poll(); return; }
    // Is it the server, or only the stream? One question tells.
    var stream = document.getElementById("stream");
    if (!stream) return;
    fetch(stream.dataset.poll + "?since=" + shownVersion(), { cache: "no-store", credentials: "same-origin" })
      .then(function (answer) { if (answer.status >= 500) goneAway(); })
      .catch(goneAway);
  });
  document.addEventListener("htmx:sseOpen", function (evt) {
    streamErrors = 0;
    beat();
    found();
    stopPolling();   // the stream is back: it brings the changes
    source = evt.detail && evt.detail.source;
    if (source && !source.__watched) {
      source.__watched = true;   // opened, and listened to
      source.addEventListener("heartbeat", beat);
      source.addEventListener("change", beat);
    }
  });
  window.setInterval(function () {
    var stream = document.getElementById("stream");
    if (!stream || polling || down || !window.EventSource) return;
    var every = parseInt(stream.dataset.heartbeatMs, 10) || 4000;
    if (Date.now() - lastBeat > every + 1000) lost();
  }, 1000);

  // --- installable: the service worker shows a clear page when the server is gone ---
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      var sw = document.body.dataset.sw;
      if (sw) navigator.serviceWorker.register(sw, { scope: "/" }).catch(function () { /* not installable here */ });
    });
  }

  // --- an error the server sent instead of a page ------------------------------
  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail.xhr;
    var text = (xhr && xhr.getResponseHeader("Content-Type") || "").indexOf("text/plain") === 0
      ? xhr.responseText : "The server could not do that (" + (xhr ? xhr.status : "?") + ").";
    showBanner(text);
  });
  // A request that could not reach the server: a move is kept and sent when
  // the table is back (its id makes the second sending the same request);
  // anything else is said not to have been sent.
  function unsent(evt) {
    var form = evt.detail && evt.detail.elt;
    if (form && form.id === "act-form") {
      if (!queued) queued = sentOf(form);
      goneAway();
      showBanner(KEPT, "network");
      return;
    }
    if (evt.detail && evt.detail.requestConfig && evt.detail.requestConfig.verb === "get") { goneAway(); return; }
    goneAway();
    showBanner("That was not sent: the table's server cannot be reached. Try again when this message goes.", "network");
  }
  document.addEventListener("htmx:sendError", unsent);
  document.addEventListener("htmx:timeout", unsent);
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail.successful) found();
  });
  function showBanner(text, kind) {
    var old = document.getElementById("banner");
    if (old && old.dataset.kind === "network" && kind === "network" && old.dataset.text === text) return;
    if (old) old.remove();
    var box = document.createElement("div");
    box.id = "banner";
    box.className = "notice banner";
    box.setAttribute("role", "alert");
    box.dataset.kind = kind || (text.indexOf("cannot be reached") >= 0 ? "network" : "error");
    box.dataset.text = text;
    box.textContent = text + " ";
    if (box.dataset.kind === "why") {
      window.setTimeout(function () { if (box.parentNode) box.remove(); }, 4000);
    } else {
      var reload = document.createElement("button");
      reload.type = "button";
      reload.textContent = "Reload";
      reload.addEventListener("click", function () { window.location.reload(); });
      box.appendChild(reload);
    }
    document.querySelector("main").prepend(box);
  }

  // --- the gestures --------------------------------------------------------------
  // A choice in progress: {target: {field, value, label}} (a target tapped
  // first) or {option: "<json>"} (an option tapped first).
  var pending = null;

  function live() { return document.getElementById("live"); }

  function actionId() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function submit(action, origin) {
    var form = document.getElementById("act-form");
    var l = live();
    if (!form || !l) return;
    pending = null;
    var move = { version: shownVersion(), action_id: actionId(), action: JSON.stringify(action),
                 origin: origin || "actions" };
    if (down) {   // no connection: kept (one move), or refused in words
      if (queued) { showBanner("A move of yours already waits to be sent: this one was not kept. " +
                               "Tap again when the table is back.", "network"); return; }
      queued = move;
      showBanner(KEPT, "network");
      paint();
      return;
    }
    send(move);
  }
  function sentOf(form) {
    return { version: form.elements.version.value, action_id: form.elements.action_id.value,
             action: form.elements.action.value, origin: form.elements.origin.value };
  }
  function send(move) {
    var form = document.getElementById("act-form");
    if (!form) return;
    form.elements.version.value = move.version;
    form.elements.action_id.value = move.action_id;
    form.elements.action.value = move.action;
    form.elements.origin.value = move.origin;
    if (form.requestSubmit) { form.requestSubmit(); }
    else if (window.htmx) { window.htmx.trigger(form, "submit"); }
    else { form.submit(); }
  }
  // What a half-made move needs next is brought onto the screen when none of
  // it is there: options under a board taller than the screen, or above a
  // long one, were off it after the first tap. The least scroll that shows
  // it (companion.css's scroll-padding keeps it from under the top bar); a
  // game's own script may ask the same for its own controls (labkit.reveal).
  function onScreen(el) {
    var r = el.getBoundingClientRect();
    if (!r.width || r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) return false;
    var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && el.contains(hit);
  }
  function reveal(els) {
    els = els.filter(function (el) { return el && el.getClientRects().length; });
    if (!els.length || els.some(onScreen)) return;
    var mid = window.innerHeight / 2;
    var near = function (el) { var r = el.getBoundingClientRect(); return Math.abs((r.top + r.bottom) / 2 - mid); };
    els.sort(function (a, b) { return near(a) - near(b); });
    var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    els[0].scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  }
  window.labkit = { submit: submit, reveal: reveal, onScreen: onScreen };

  function valuesOf(option) {
    return (option.dataset.values || "").split(",").filter(function (x) { return x !== ""; });
  }
  function accepts(option, target) {
    return option.dataset.fill === target.field && valuesOf(option).indexOf(target.value) >= 0;
  }
  function targetOf(el) {
    return { field: el.dataset.target, value: el.dataset.value, label: el.dataset.label || el.dataset.value };
  }
  function options() {
    var l = live();
    return l ? Array.prototype.slice.call(l.querySelectorAll("[data-option]")) : [];
  }
  function complete(optionText, target) {
    var action = JSON.parse(optionText);
    var n = Number(target.value);
    action[target.field] = (target.value !== "" && !isNaN(n)) ? n : target.value;
    return action;
  }

  function paint() {
    var l = live();
    if (!l) return;
    l.querySelectorAll("[data-target].selected, [data-target].armed").forEach(function (el) {
      el.classList.remove("selected"); el.classList.remove("armed");
    });
    var opts = options();
    if (pending && pending.target) {
      var t = pending.target;
      var el = l.querySelector('[data-target="' + CSS.escape(t.field) + '"][data-value="' + CSS.escape(t.value) + '"]');
      if (!el || !opts.some(function (o) { return accepts(o, t); })) { pending = null; }
      else { el.classList.add("selected"); t.label = targetOf(el).label; }   // its name as drawn now
    }
    if (pending && pending.option !== undefined) {
      var armed = opts.filter(function (o) { return o.dataset.option === pending.option; })[0];
      if (!armed) { pending = null; }
      else {
        valuesOf(armed).forEach(function (v) {
          var el = l.querySelector('[data-target="' + CSS.escape(armed.dataset.fill) + '"][data-value="' + CSS.escape(v) + '"]');
          if (el) el.classList.add("armed");
        });
      }
    }
    opts.forEach(function (o) {
      o.disabled = !!(pending && pending.target && !accepts(o, pending.target));
      o.setAttribute("aria-pressed", pending && pending.option === o.dataset.option ? "true" : "false");
    });
    var prompt = l.querySelector("[data-picker-prompt]");
    if (prompt) {
      // words that fit any move (a claim, a count, an element): a game may
      // give its own with data-then on an option
      var chosen = pending && pending.option !== undefined &&
        opts.filter(function (o) { return o.dataset.option === pending.option; })[0];
      if (pending && pending.target) {
        prompt.textContent = pending.target.label + ": now choose what to do there.";
      } else if (chosen) {
        prompt.textContent = chosen.dataset.then || ("\u201c" + chosen.textContent.trim() + "\u201d: now tap one of the lit places.");
      } else { prompt.textContent = prompt.dataset.idle || ""; }
    }
  }

  // A tap does what the control said when the finger came down. A change can
  // arrive between the finger landing and the click (a few hundred ms on a
  // phone) and redraw the control under it as another: that click is not
  // sent; the player sees the new control and taps again if it is what they
  // want. (A click from the keyboard has no finger: detail 0.)
  var ACTING = "[data-act], [data-option], [data-target], [data-act-collect], [data-act-from], " +
    "button[type=submit], input[type=submit]";
  var pressed = null;   // {el, meaning} at pointerdown
  function meaning(el) {
    var form = el.closest("form");
    return [el.tagName, el.textContent, el.getAttribute("aria-label"), el.dataset.act, el.dataset.option,
      el.dataset.fill, el.dataset.values, el.dataset.target, el.dataset.value, el.dataset.actCollect,
      el.dataset.actFrom, form ? form.getAttribute("hx-post") || form.getAttribute("action") : ""].join("\u0000");
  }
  document.addEventListener("pointerdown", function (evt) {
    var el = evt.target.closest && evt.target.closest(ACTING);
    pressed = el ? { el: el, meaning: meaning(el) } : null;
  }, true);
  document.addEventListener("click", function (evt) {
    var was = pressed;
    pressed = null;
    if (!was || evt.detail === 0) return;
    var el = evt.target.closest && evt.target.closest(ACTING);
    if (el === was.el && meaning(el) !== was.meaning) {
      evt.preventDefault();
      evt.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    var targetEl = t.closest("[data-target]");
    if (targetEl && live() && live().contains(targetEl)) {
      var target = targetOf(targetEl);
      var opts = options();
      if (!opts.some(function (o) { return accepts(o, target); })) {
        // a tap on a place no move of this phone's can use now is told, not ignored
        if (opts.length) showBanner((target.label || "That place") + ": none of your moves can use it now.", "why");
        return;
      }
      if (pending && pending.option !== undefined) {
        var armed = opts.filter(function (o) { return o.dataset.option === pending.option; })[0];
        if (armed && accepts(armed, target)) {
          submit(complete(pending.option, target), armed.dataset.origin);
          return;
        }
      }
      var same = pending && pending.target && pending.target.field === target.field && pending.target.value === target.value;
      pending = same ? null : { target: target };
      paint();
      if (pending) reveal(opts.filter(function (o) { return accepts(o, target); }));
      return;
    }
    var option = t.closest("[data-option]");
    if (option) {
      if (pending && pending.target && accepts(option, pending.target)) {
        submit(complete(option.dataset.option, pending.target), option.dataset.origin);
      } else {
        pending = (pending && pending.option === option.dataset.option) ? null : { option: option.dataset.option };
        paint();
        if (pending) reveal(Array.prototype.slice.call(live().querySelectorAll("[data-target].armed")));
      }
      return;
    }
    var collect = t.closest("[data-act-collect]");
    if (collect) {
      var field = collect.dataset.collect;
      var action = JSON.parse(collect.dataset.actCollect);
      action[field] = Array.prototype.map.call(
        document.querySelectorAll('input[data-collect-into="' + CSS.escape(field) + '"]:checked'),
        function (el) { var n = Number(el.value); return isNaN(n) ? el.value : n; });
      submit(action, collect.dataset.origin);
      return;
    }
    var from = t.closest("[data-act-from]");
    if (from) {
      var select = document.querySelector(from.dataset.actFrom);
      if (select && select.value) submit(JSON.parse(select.value), from.dataset.origin);
      return;
    }
    var direct = t.closest("[data-act]");
    if (direct) {
      // asked once when the move gives something up ("Finish my turn" with bonds left to draw)
      if (direct.dataset.confirm && !window.confirm(direct.dataset.confirm)) return;
      submit(JSON.parse(direct.dataset.act), direct.dataset.origin);
    }
  });

  // Keyboard: targets and actions drawn in SVG are focusable; Enter or Space taps them.
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" && evt.key !== " ") return;
    var el = evt.target.closest && evt.target.closest("svg [tabindex]");
    if (!el) return;
    evt.preventDefault();
    el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });

  // A short buzz when it becomes your move (phones that allow it).
  var myTurn = null;
  function buzz() {
    var st = tableState();
    var now = !!st && st.dataset.myTurn === "true";
    if (myTurn === false && now && navigator.vibrate) navigator.vibrate(120);
    myTurn = now;
  }

  function refreshed() { paint(); keepAwake(); buzz(); }
  document.addEventListener("htmx:afterSwap", refreshed);
  document.addEventListener("htmx:sseMessage", refreshed);
  document.addEventListener("DOMContentLoaded", buzz);
  document.addEventListener("DOMContentLoaded", paint);
})();
