#!/usr/bin/env node
// The same load as phones.mjs, on boardgame.io (bgio-server.mjs): tables x
// players, each player a socket.io connection of its own speaking
// boardgame.io's socket protocol as its client does (`sync` to join a match,
// `update` with a MAKE_MOVE action and the state id it saw; the server sends
// every player of the match the new state). Matches are made and joined
// through boardgame.io's lobby routes (credentials), and a finished match is
// replaced by a new one.
//
// The player whose turn it is rolls (at a human pace after 0.5 to 2.5 s, at
// the highest rate at once). A move's latency runs from sending it to the
// mover receiving the new state; "seen by others" from that moment to each
// other player receiving it. Prints {"phase":"ready"}, {"phase":"end"} and
// {"result":{...}} lines, as phones.mjs does.
//
//   node bench/load/bgio-phones.mjs --url http://127.0.0.1:8000 --tables 50 --phones 4 --pace max --seconds 15

import http from "node:http";
import { createRequire } from "node:module";

import { cpuSince, now, options, rng, say, sleep, summary, thinker } from "./common.mjs";

// socket.io-client as boardgame.io itself depends on it.
const require = createRequire(createRequire(import.meta.url).resolve("boardgame.io/package.json"));
const { io } = require("socket.io-client");

const opt = options(process.argv.slice(2), {
  url: "http://127.0.0.1:8000", game: "dice", tables: 50, phones: 4, pace: "human", seconds: 15, seed: 1,
  thinkMin: 0.5, thinkMax: 2.5, setupConcurrency: 8, drain: 1.5, timeout: 5,
});
const random = rng(opt.seed);
const think = thinker(opt, random);

const stats = { act: [], seen: [], applied: 0, unanswered: 0, server_errors: 0, failed: 0, unseen: 0,
                disconnects: 0, games_finished: 0, tables_started: 0, setup_requests: 0 };
let measuring = false;
let stopping = false;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function lobby(path, payload) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(payload);
    const req = http.request({ host: opt.host, port: opt.port, method: "POST", path, agent,
                               headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } });
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        stats.setup_requests++;
        const text = Buffer.concat(chunks).toString("utf8");
        if (res.statusCode !== 200) {
          if (res.statusCode >= 500) stats.server_errors++;
          reject(new Error(`POST ${path}: ${res.statusCode} ${text.slice(0, 200)}`));
        } else {
          resolve(JSON.parse(text));
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

class Player {
  constructor(table, id) {
    this.table = table;
    this.id = String(id);
    this.stateID = -1;
    this.current = null;
    this.over = false;
    this.busy = false;
    this.waiters = [];
    this.pending = null;       // {stateID, sent, measured}: a move awaiting its answer
    this.socket = io(`${opt.origin}/${opt.game}`, { transports: ["websocket"], forceNew: true, reconnection: true });
    this.socket.on("sync", (matchID, info) => this.state(matchID, info.state));
    this.socket.on("update", (matchID, state) => this.state(matchID, state));
    this.socket.on("disconnect", () => { if (!stopping) stats.disconnects++; });
    this.socket.on("connect_error", () => { if (measuring) stats.failed++; });
  }

  join(matchID, credentials) {
    this.matchID = matchID;
    this.credentials = credentials;
    this.stateID = -1;
    this.over = false;
    this.waiters = [];
    this.pending = null;
    this.socket.emit("sync", matchID, this.id, credentials, opt.phones);
  }

  state(matchID, state) {
    if (matchID !== this.matchID || state._stateID <= this.stateID) return;
    const at = now();
    this.stateID = state._stateID;
    this.current = state.ctx.currentPlayer;
    this.over = state.ctx.gameover !== undefined;
    if (this.waiters.length) {
      const still = [];
      for (const w of this.waiters) {
        if (w.stateID <= this.stateID) { if (w.measured) stats.seen.push(at - w.acked); } else still.push(w);
      }
      this.waiters = still;
    }
    const p = this.pending;
    if (p && this.stateID > p.stateID) {
      this.pending = null;
      clearTimeout(p.timer);
      if (p.measured) {
        stats.act.push(at - p.sent);
        stats.applied++;
      }
      this.table.acked(this, this.stateID, at, p.measured);
      p.done();
    }
    if (this.over) this.table.finish();
    this.consider();
  }

  consider() {
    if (this.busy || !measuring || this.over || this.current !== this.id || this.stateID < 0) return;
    this.busy = true;
    const go = () => this.move().finally(() => { this.busy = false; this.consider(); });
    const pause = think();
    if (pause > 0) setTimeout(go, pause); else setImmediate(go);
  }

  move() {
    if (stopping || this.over || this.current !== this.id) return Promise.resolve();
    const matchID = this.matchID;
    return new Promise((done) => {
      const pending = { stateID: this.stateID, sent: now(), measured: measuring, done };
      pending.timer = setTimeout(() => {   // boardgame.io drops a move it refuses without a word
        if (this.pending === pending) {
          this.pending = null;
          if (pending.measured) stats.unanswered++;
          done();
        }
      }, opt.timeout * 1000);
      this.pending = pending;
      this.socket.emit("update", { type: "MAKE_MOVE", payload: { type: "roll", args: [], playerID: this.id,
                                                                  credentials: this.credentials } },
                       this.stateID, matchID, this.id);
    });
  }
}

class Table {
  constructor(index) {
    this.index = index;
    this.players = Array.from({ length: opt.phones }, (_, i) => new Player(this, i));
    this.closing = false;
  }

  async setUp() {
    const { matchID } = await lobby(`/games/${opt.game}/create`, { numPlayers: opt.phones });
    for (const p of this.players) {
      const joined = await lobby(`/games/${opt.game}/${matchID}/join`, { playerID: Number(p.id), playerName: `P${p.id}` });
      p.join(matchID, joined.playerCredentials);
    }
    const until = now() + 5000;
    while (now() < until && this.players.some((p) => p.stateID < 0)) await sleep(10);
    this.closing = false;
    stats.tables_started++;
  }

  acked(mover, stateID, when, measured) {
    for (const p of this.players) {
      if (p === mover) continue;
      if (p.stateID >= stateID) { if (measured) stats.seen.push(0); }
      else p.waiters.push({ stateID, acked: when, measured });
    }
  }

  async finish() {
    if (this.closing) return;
    this.closing = true;
    const until = now() + 3000;
    while (now() < until && !this.players.every((p) => p.over && p.waiters.length === 0)) await sleep(50);
    if (measuring) stats.games_finished++;
    this.drop();
    if (stopping) return;
    try {
      await this.setUp();
    } catch (err) {
      stats.failed++;
      process.stderr.write(`table ${this.index}: new match failed: ${err.message}\n`);
    }
  }

  drop() {
    for (const p of this.players) {
      stats.unseen += p.waiters.filter((w) => w.measured).length;
      p.waiters = [];
    }
  }
}

async function main() {
  const tables = Array.from({ length: opt.tables }, (_, i) => new Table(i));
  const setupStart = now();
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(opt.setupConcurrency, tables.length) }, async () => {
    while (next < tables.length) await tables[next++].setUp();
  }));
  const setupSeconds = (now() - setupStart) / 1000;
  for (const key of Object.keys(stats)) stats[key] = Array.isArray(stats[key]) ? [] : 0;

  say({ phase: "ready", tables: tables.length, phones: tables.length * opt.phones });
  measuring = true;
  const cpu = process.cpuUsage();
  const t0 = now();
  for (const t of tables) for (const p of t.players) p.consider();
  await sleep(opt.seconds * 1000);
  measuring = false;
  const seconds = (now() - t0) / 1000;
  stopping = true;
  const until = now() + opt.timeout * 1000 + 1000;
  while (now() < until && tables.some((t) => t.players.some((p) => p.busy))) await sleep(20);
  const drainUntil = now() + opt.drain * 1000;
  while (now() < drainUntil && tables.some((t) => t.players.some((p) => p.waiters.some((w) => w.measured)))) {
    await sleep(20);
  }
  const window = (now() - t0) / 1000;
  const generator = cpuSince(cpu, t0);
  say({ phase: "end" });
  for (const t of tables) { t.drop(); for (const p of t.players) p.socket.close(); }
  agent.destroy();
  say({
    result: {
      kind: "boardgame.io", game: opt.game, tables: opt.tables, phones_per_table: opt.phones, pace: opt.pace,
      seconds, window_seconds: window, setup_seconds: setupSeconds,
      answered: stats.act.length, applied: stats.applied, actions_per_s: stats.applied / seconds,
      act_ms: summary(stats.act), seen_ms: summary(stats.seen),
      conflicts: 0, refused: 0, unanswered: stats.unanswered, server_errors: stats.server_errors,
      failed: stats.failed, disconnects: stats.disconnects, unseen: stats.unseen,
      games_finished: stats.games_finished, tables_started: stats.tables_started, setup_requests: stats.setup_requests,
      ...generator, generator_rss_mb: process.memoryUsage().rss / 1e6,
    },
  });
}

main().then(() => process.exit(0), (err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
