#!/usr/bin/env node
// Phones at the companion's tables, as the real pages drive it: a session
// cookie and the CSRF token from the table page, a join through the lobby
// form, a Server-Sent Events stream per phone (`/t/CODE/events`), and every
// move posted through the page's form (`/t/CODE/act`) with cookies, the CSRF
// header and `HX-Request: true`, as htmx sends it. No browser: one Node
// process, keep-alive sockets, little CPU (it reports its own).
//
// A phone keeps the latest HTML of each part of `#live` (replaced by id, from
// its stream and from the answers to its own moves) and picks its move among
// the controls the page shows: a button with `data-act` (the action as it is)
// or `data-option` + `data-fill` + `data-values` (the action completed with
// one of the values), or, on the generic board of a game without a plugin,
// a form's submit button `name="action" value="{json}"`, or `data-act-from`
// (one of the actions of the `<select>` it names, taken at random, as a
// player picks one placement from the list). `data-act-collect` is left out,
// and so are the tappable gaps of an SVG
// sheet (their offered bonds are buttons too): a phone acts only when a button
// offers it something, which is when it is its move or it has something to
// do. At a human pace it waits 0.5 to 2.5 s first and then taps what its page
// shows by then; at the highest rate it taps at once.
//
//   node bench/load/phones.mjs --url http://127.0.0.1:5000 --game GAME \
//        --tables 50 --phones 4 --pace human --seconds 15
//
// `--bots N` seats N bots (`--botLevel`, default medium) after the phones, each
// table's server-side player; their moves count as changes the phones see,
// not as actions measured.
//
// Table set-up (create and start) goes through the JSON API with the host's
// token; joining and every move go through the pages. Prints one JSON line
// per phase to stdout: {"phase":"ready"} once every table has started and
// every stream is open (the measured window opens), {"phase":"end"} when it
// closes, then {"result":{...}} with the figures. Only loopback addresses are
// accepted as targets.

import http from "node:http";
import { randomUUID } from "node:crypto";

import { cpuSince, now, options, rng, say, sleep, summary, thinker } from "./common.mjs";

const opt = options(process.argv.slice(2), {
  url: "http://127.0.0.1:5000", game: "", tables: 50, phones: 4, pace: "human", seconds: 15, seed: 1,
  thinkMin: 0.5, thinkMax: 2.5, setupConcurrency: 8, drain: 1.5, debug: false, bots: 0, botLevel: "medium",
  spread: false,
});
if (!opt.game) {
  console.error("phones.mjs: name the game to play (--game, one of the server's games)");
  process.exit(2);
}
const random = rng(opt.seed);
const pick = (list) => list[Math.floor(random() * list.length)];
const think = thinker(opt, random);

// --- figures ----------------------------------------------------------------------------
const stats = {
  act: [],             // ms from sending a move to its whole answer, every answered move
  seen: [],            // ms from the mover's 200 to each other phone's event with that version
  applied: 0, conflicts: 0, refused: 0, server_errors: 0, other_4xx: 0, failed: 0, retried: 0,
  unseen: 0, stream_drops: 0, stream_events: 0, stream_bytes: 0, setup_requests: 0,
  tables_started: 0, games_finished: 0, statuses: {},
};
let measuring = false;
let stopping = false;
function count(status) {
  stats.statuses[status] = (stats.statuses[status] || 0) + 1;
}

// --- HTTP -------------------------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 4096, scheduling: "lifo" });

// One request; resolves to {status, headers, body} or rejects on a failed connection. A request on a
// reused keep-alive socket that the server had just closed is sent again once (as browsers do).
function request(method, path, { headers = {}, body = null, retry = true, local = undefined } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: opt.host, port: opt.port, method, path, agent, headers, localAddress: local });
    req.setTimeout(30000, () => req.destroy(new Error("timeout")));
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers,
                                     body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", (err) => {
      if (retry && req.reusedSocket && err.code === "ECONNRESET") {
        stats.retried++;
        request(method, path, { headers, body, retry: false, local }).then(resolve, reject);
      } else {
        reject(err);
      }
    });
    req.end(body);
  });
}

async function api(method, path, payload, token, local = undefined) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await request(method, path, { headers, body: payload === undefined ? null : JSON.stringify(payload),
                                            local });
  stats.setup_requests++;
  if (res.status >= 500) stats.server_errors++;
  return { status: res.status, json: res.body ? JSON.parse(res.body) : null };
}

// --- the page's HTML --------------------------------------------------------------------
const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
function unescape(text) {
  if (text.indexOf("&") < 0) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const ATTR = /([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
function attributes(tag) {
  const out = {};
  ATTR.lastIndex = 0;
  let m;
  while ((m = ATTR.exec(tag)) !== null) {
    const value = m[2] ?? m[3] ?? m[4];
    out[m[1].toLowerCase()] = value === undefined ? "" : unescape(value);
  }
  return out;
}

// The moves a part's buttons offer: [{action, origin}], each data-option once per value.
const BUTTON = /<button\b([^>]*)>/g;
function gestures(html) {
  const out = [];
  if (html.indexOf("data-act") < 0 && html.indexOf("data-option") < 0 && html.indexOf('name="action"') < 0) return out;
  BUTTON.lastIndex = 0;
  let m;
  while ((m = BUTTON.exec(html)) !== null) {
    const raw = m[1];
    if (raw.indexOf("data-act=") < 0 && raw.indexOf("data-act-from=") < 0 && raw.indexOf("data-option=") < 0 && raw.indexOf('name="action"') < 0) continue;
    const a = attributes(raw);
    if ("disabled" in a) continue;
    try {
      if (a["data-act"] !== undefined) {
        out.push({ action: JSON.parse(a["data-act"]), origin: a["data-origin"] || "actions" });
      } else if (a["data-act-from"] !== undefined) {
        const options = selectOptions(html, a["data-act-from"]);
        if (options.length) {
          out.push({ action: JSON.parse(options[Math.floor(Math.random() * options.length)]),
                     origin: a["data-origin"] || "actions" });
        }
      } else if (a.name === "action" && a.value !== undefined) {   // the generic board: a form's submit button
        out.push({ action: JSON.parse(a.value), origin: "actions" });
      } else if (a["data-option"] !== undefined && a["data-fill"]) {
        const base = JSON.parse(a["data-option"]);
        for (const v of (a["data-values"] || "").split(",").filter((x) => x !== "")) {
          const n = Number(v);
          out.push({ action: { ...base, [a["data-fill"]]: Number.isNaN(n) ? v : n }, origin: a["data-origin"] || "actions" });
        }
      }
    } catch (err) {
      // an unreadable attribute is not a control
    }
  }
  return out;
}

// The non-empty option values of the <select id="..."> a "#id" selector names.
const OPTION = /<option\b([^>]*)>/g;
function selectOptions(html, selector) {
  if (!selector.startsWith("#")) return [];
  const at = html.indexOf(`id="${selector.slice(1)}"`);
  if (at < 0) return [];
  const end = html.indexOf("</select>", at);
  const body = html.slice(at, end < 0 ? undefined : end);
  const out = [];
  OPTION.lastIndex = 0;
  let m;
  while ((m = OPTION.exec(body)) !== null) {
    const value = attributes(m[1]).value;
    if (value) out.push(value);
  }
  return out;
}

const STATE = /<div\b([^>]*\sid="live-state"[^>]*)>/;
function readState(html) {
  const m = STATE.exec(html);
  if (!m) return null;
  const a = attributes(m[1]);
  return { version: parseInt(a["data-version"], 10), myTurn: a["data-my-turn"] === "true", status: a["data-status"] };
}

// Split HTML into the parts it carries: {name: html}. Parts are siblings,
// each a `<div ... id="part-NAME" ...>` (the id first on a page, after
// `hx-swap-oob` in an event), so each runs to the next one.
const PART = /<div\b[^>]*?\sid="part-([^"]+)"/g;
function splitParts(html) {
  const out = new Map();
  const starts = [];
  PART.lastIndex = 0;
  let m;
  while ((m = PART.exec(html)) !== null) starts.push([m.index, m[1]]);
  for (let i = 0; i < starts.length; i++) {
    out.set(starts[i][1], html.slice(starts[i][0], i + 1 < starts.length ? starts[i + 1][0] : undefined));
  }
  return out;
}

// --- a phone ----------------------------------------------------------------------------
class Phone {
  constructor(table, index) {
    this.table = table;
    this.index = index;
    // `--spread 1`: each phone from an address of its own (127.10.T.P), as phones on a Wi-Fi are,
    // so the server's bounds per address hold each phone to its own share, as in a real room
    this.local = opt.spread ? `127.${10 + (table.index >> 8)}.${table.index & 255}.${index + 1}` : undefined;
    this.reset();
  }

  reset() {
    this.generation = (this.generation || 0) + 1;   // a move still out for the previous table ends on its own
    this.cookies = new Map();
    this.csrf = "";
    this.version = -1;        // what the page shows
    this.streamVersion = -1;  // the newest event id its stream brought
    this.status = "lobby";
    this.myTurn = false;
    this.parts = new Map();   // name -> {html, gestures}
    this.waiters = [];        // [{version, acked}] moves of other phones this one has not seen yet
    this.busy = false;        // a move is being thought about or sent
    this.refusedAt = -1;
    this.refusals = 0;
    this.stream = null;
    this.buffer = "";
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  keepCookies(headers) {
    for (const line of headers["set-cookie"] || []) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  async page() {
    const res = await request("GET", `/t/${this.table.code}`, {
      headers: { Accept: "text/html", Cookie: this.cookieHeader() }, local: this.local });
    stats.setup_requests++;
    if (res.status !== 200) throw new Error(`GET /t/${this.table.code}: ${res.status}`);
    this.keepCookies(res.headers);
    const m = /hx-headers='([^']*)'/.exec(res.body);
    if (m) this.csrf = JSON.parse(unescape(m[1]))["X-CSRF-Token"];
    const start = res.body.indexOf('<section id="live"');
    const end = res.body.indexOf('<form id="act-form"');
    this.show(res.body.slice(start, end < 0 ? undefined : end), true);
  }

  async join() {
    await this.page();
    const res = await request("POST", `/t/${this.table.code}/join`, {
      headers: this.formHeaders(), body: new URLSearchParams({ name: `P${this.index + 1}` }).toString(),
      local: this.local });
    stats.setup_requests++;
    if (res.status >= 300 && res.status !== 303) throw new Error(`join ${this.table.code}: ${res.status} ${res.body.slice(0, 200)}`);
    this.keepCookies(res.headers);
    if (![...this.cookies.keys()].includes(`labkit_seat_${this.table.code}`)) throw new Error("no seat cookie");
    await this.page();   // HX-Redirect: the page again, now with a seat
  }

  formHeaders() {
    return { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true", "X-CSRF-Token": this.csrf,
             Cookie: this.cookieHeader(), Origin: opt.origin, "Sec-Fetch-Site": "same-origin" };
  }

  // New HTML for the page: the whole #live region (whole=true) or out-of-band fragments.
  show(html, whole) {
    const state = readState(html);
    if (!state || state.version < this.version) return false;   // never go back in time (companion.js)
    this.version = state.version;
    this.status = state.status;
    this.myTurn = state.myTurn;
    const parts = splitParts(html);
    if (whole) {
      for (const name of [...this.parts.keys()]) if (!parts.has(name)) this.parts.delete(name);
    }
    for (const [name, chunk] of parts) {
      const old = this.parts.get(name);
      if (!old || old.html !== chunk) this.parts.set(name, { html: chunk, gestures: gestures(chunk) });
    }
    return true;
  }

  controls() {
    const out = [];
    for (const part of this.parts.values()) for (const g of part.gestures) out.push(g);
    return out;
  }

  // --- the stream
  openStream() {
    if (this.stream || stopping) return;
    const code = this.table.code;
    const headers = { Accept: "text/event-stream", Cookie: this.cookieHeader(), "Cache-Control": "no-cache" };
    if (this.streamVersion >= 0) headers["Last-Event-ID"] = String(this.streamVersion);
    const req = http.request({ host: opt.host, port: opt.port, method: "GET", agent: false, headers,
                               localAddress: this.local, path: `/t/${code}/events?since=${this.version}` });
    this.stream = req;
    this.streamOpen = false;
    this.buffer = "";
    const lost = (why) => {
      if (this.stream !== req) return;
      this.stream = null;
      if (stopping || this.table.code !== code || this.table.closing) return;
      stats.stream_drops++;
      if (why >= 500 || why === "error") stats.failed++;
      setTimeout(() => { if (this.table.code === code) this.openStream(); }, 1000);   // `retry: 1000`
    };
    req.on("response", (res) => {
      if (res.statusCode !== 200) { res.resume(); count(res.statusCode); lost(res.statusCode); return; }
      this.streamOpen = true;
      res.setEncoding("utf8");
      res.on("data", (chunk) => this.received(chunk));
      res.on("end", () => lost("end"));
      res.on("error", () => lost("error"));
    });
    req.on("error", () => lost("error"));
    req.end();
  }

  closeStream() {
    const req = this.stream;
    this.stream = null;
    if (req) req.destroy();
  }

  received(chunk) {
    stats.stream_bytes += chunk.length;
    this.buffer += chunk;
    let end;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.event(block);
    }
  }

  event(block) {
    let id = null;
    let type = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("data:")) data.push(line.slice(line[5] === " " ? 6 : 5));
      else if (line.startsWith("id:")) id = parseInt(line.slice(3).trim(), 10);
      else if (line.startsWith("event:")) type = line.slice(6).trim();
    }
    if (id === null || type !== "change") return;
    const at = now();
    stats.stream_events++;
    if (id > this.streamVersion) this.streamVersion = id;
    if (this.waiters.length) {
      const still = [];
      for (const w of this.waiters) {
        if (w.version <= id) { if (w.measured) stats.seen.push(at - w.acked); } else still.push(w);
      }
      this.waiters = still;
    }
    const html = data.join("\n");
    this.show(html, html.startsWith('<section id="live"'));
    this.table.changed(this);
    this.consider();
  }

  // --- moving
  consider() {
    if (this.busy || !measuring || this.status !== "playing") return;   // no move outside the window
    if (this.refusedAt === this.version && this.refusals >= 3) return;   // wait for the table to change
    if (!this.controls().length) return;
    this.busy = true;
    const pause = think();
    const generation = this.generation;
    const go = () => this.move().finally(() => {
      if (this.generation !== generation) return;
      this.busy = false;
      this.consider();
    });
    if (pause > 0) setTimeout(go, pause); else setImmediate(go);
  }

  async move() {
    if (stopping || this.status !== "playing") return;
    const choices = this.controls();   // what the page shows now: the page is the truth
    if (!choices.length) return;
    const { action, origin } = pick(choices);
    const code = this.table.code;
    const body = new URLSearchParams({ version: String(this.version), action: JSON.stringify(action),
                                       action_id: randomUUID(), origin }).toString();
    const measured = measuring;
    const started = now();
    let res;
    try {
      res = await request("POST", `/t/${code}/act`, { headers: this.formHeaders(), body, local: this.local });
    } catch (err) {
      if (measured) stats.failed++;
      await sleep(200);
      return;
    }
    const answered = now();
    if (this.table.code !== code) return;   // the table was replaced meanwhile
    if (measured) {
      stats.act.push(answered - started);
      count(res.status);
      if (res.status === 200) stats.applied++;
      else if (res.status === 409) stats.conflicts++;
      else if (res.status === 422) stats.refused++;
      else if (res.status >= 500) stats.server_errors++;
      else stats.other_4xx++;
    }
    if (res.status === 422) {
      this.refusals = this.refusedAt === this.version ? this.refusals + 1 : 1;
      this.refusedAt = this.version;
    }
    if (res.status === 200) {
      const version = parseInt(res.headers["x-table-version"], 10);
      this.table.acked(this, version, answered, measured);
    }
    if (res.status < 500 && res.body.startsWith('<section id="live"')) {
      this.show(res.body, true);
      this.table.changed(this);
    } else if (res.status >= 500 || res.status === 403 || res.status === 400) {
      await sleep(200);   // the page would show a banner; a person taps again a moment later
    }
  }
}

// --- a table ----------------------------------------------------------------------------
let tableSeed = opt.seed * 100003;
class Table {
  constructor(index) {
    this.index = index;
    this.code = "";
    this.closing = false;
    this.phones = Array.from({ length: opt.phones }, (_, i) => new Phone(this, i));
  }

  async setUp() {
    this.closing = false;
    const host = this.phones[0].local;   // --spread: the host is the first phone (its own address)
    const created = await api("POST", "/api/tables", { game: opt.game, seed: tableSeed++ }, undefined, host);
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.json)}`);
    this.code = created.json.code;
    this.hostToken = created.json.host_token;
    for (const phone of this.phones) {
      phone.reset();
      await phone.join();
    }
    // Bot seats (--bots N): seated by the host's token after the phones, so
    // the phones keep seats 0.. and a bot plays the seats after them.
    for (let i = 0; i < opt.bots; i++) {
      const added = await api("POST", `/api/tables/${this.code}/bots`, { level: opt.botLevel }, this.hostToken, host);
      if (added.status !== 201) throw new Error(`bot: ${added.status} ${JSON.stringify(added.json)}`);
    }
    for (const phone of this.phones) phone.openStream();
    await this.streamsOpen();
    let version = Math.max(...this.phones.map((p) => p.version));
    if (opt.bots) version = (await api("GET", `/api/tables/${this.code}/version`, undefined, undefined, host)).json.version;
    const started = await api("POST", `/api/tables/${this.code}/start`, { version }, this.hostToken, host);
    if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.json)}`);
    stats.tables_started++;
  }

  async streamsOpen() {
    // A stream is open once its response headers arrived; wait for all (up to 5 s).
    const until = now() + 5000;
    while (now() < until) {
      if (this.phones.every((p) => p.stream && p.streamOpen)) return;
      await sleep(10);
    }
  }

  // The mover's 200 for `version`: each other phone sees it when its stream brings that version.
  acked(mover, version, when, measured) {
    for (const phone of this.phones) {
      if (phone === mover) continue;
      if (phone.streamVersion >= version) { if (measured) stats.seen.push(0); }
      else phone.waiters.push({ version, acked: when, measured });
    }
  }

  changed(phone) {
    if (phone.status === "over" && !this.closing) this.finish();
  }

  // The game ended: once every phone's stream has shown the end (or 3 s passed), a new table.
  async finish() {
    this.closing = true;
    const code = this.code;
    const until = now() + 3000;
    while (now() < until && !this.phones.every((p) => p.waiters.length === 0 && p.status === "over")) {
      await sleep(50);
    }
    if (measuring) stats.games_finished++;
    this.drop();
    if (stopping || this.code !== code) return;
    try {
      await this.setUp();
    } catch (err) {
      stats.failed++;
      process.stderr.write(`table ${this.index}: new table failed: ${err.message}\n`);
    }
  }

  drop() {
    for (const phone of this.phones) {
      stats.unseen += phone.waiters.filter((w) => w.measured).length;
      phone.waiters = [];
      phone.closeStream();
    }
  }
}

// --- the run ----------------------------------------------------------------------------
async function main() {
  const tables = Array.from({ length: opt.tables }, (_, i) => new Table(i));
  // Set up the tables a few at a time (not measured).
  const setupStart = now();
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(opt.setupConcurrency, tables.length) }, async () => {
    while (next < tables.length) await tables[next++].setUp();
  }));
  const setupSeconds = (now() - setupStart) / 1000;
  for (const key of Object.keys(stats)) {
    stats[key] = Array.isArray(stats[key]) ? [] : typeof stats[key] === "number" ? 0 : {};
  }

  say({ phase: "ready", tables: tables.length, phones: tables.length * opt.phones });
  measuring = true;
  const cpu = process.cpuUsage();
  const t0 = now();
  for (const t of tables) for (const p of t.phones) p.consider();
  await sleep(opt.seconds * 1000);
  measuring = false;
  const seconds = (now() - t0) / 1000;
  // Moves already sent are answered; the streams get a moment to show them.
  stopping = true;
  const until = now() + 10000;
  while (now() < until && tables.some((t) => t.phones.some((p) => p.busy))) await sleep(20);
  const drainUntil = now() + opt.drain * 1000;
  while (now() < drainUntil && tables.some((t) => t.phones.some((p) => p.waiters.some((w) => w.measured)))) {
    await sleep(20);
  }
  const window = (now() - t0) / 1000;
  const generator = cpuSince(cpu, t0);
  say({ phase: "end" });
  if (opt.debug) {
    for (const t of tables) for (const p of t.phones) {
      process.stderr.write(`${t.code} P${p.index} v${p.version}/${p.streamVersion} ${p.status} turn=${p.myTurn} ` +
        `controls=${JSON.stringify(p.controls().map((g) => g.action)).slice(0, 200)}\n`);
    }
  }
  for (const t of tables) t.drop();
  agent.destroy();

  say({
    result: {
      kind: "companion", game: opt.game, tables: opt.tables, phones_per_table: opt.phones, bots_per_table: opt.bots, pace: opt.pace,
      seconds, window_seconds: window, setup_seconds: setupSeconds,
      answered: stats.act.length, applied: stats.applied, actions_per_s: stats.applied / seconds,
      act_ms: summary(stats.act), seen_ms: summary(stats.seen),
      conflicts: stats.conflicts, refused: stats.refused, server_errors: stats.server_errors,
      other_4xx: stats.other_4xx, failed: stats.failed, retried: stats.retried, unseen: stats.unseen,
      statuses: stats.statuses, stream_drops: stats.stream_drops, stream_events: stats.stream_events,
      stream_mb: stats.stream_bytes / 1e6, games_finished: stats.games_finished, tables_started: stats.tables_started,
      setup_requests: stats.setup_requests, ...generator, generator_rss_mb: process.memoryUsage().rss / 1e6,
    },
  });
}

main().then(() => process.exit(0), (err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
