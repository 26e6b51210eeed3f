#!/usr/bin/env node
// A minimal boardgame.io server to compare the companion with: a dice game
// (each player in turn rolls one die, which ends the turn; the game ends after
// --rolls rolls, about a four-player game's number of moves at our tables),
// boardgame.io's own lobby routes and its socket.io transport, matches kept in
// memory. Rolls happen on the server only (`client: false`), so a move's
// answer is the server's word, as a companion action is.
//
//   node bench/load/bgio-server.mjs --port 8000 [--rolls 400]
//
// It listens on 127.0.0.1 only and prints {"listening": PORT} once it does.
// boardgame.io 0.50.2's lobby routes answer 404 unless koa-compose is 4.1.0
// (package.json pins it with an `overrides` entry).

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { Server } = require("boardgame.io/server");

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const port = parseInt(arg("port", "8000"), 10);
const rolls = parseInt(arg("rolls", "400"), 10);

export const Dice = {
  name: "dice",
  minPlayers: 1,
  maxPlayers: 8,
  setup: ({ ctx }) => ({ scores: Array(ctx.numPlayers).fill(0), rolls: 0 }),
  moves: {
    roll: {
      move: ({ G, playerID, random }) => {
        G.scores[Number(playerID)] += random.D6();
        G.rolls += 1;
      },
      client: false,
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G }) => {
    if (G.rolls < rolls) return undefined;
    const best = Math.max(...G.scores);
    return { winner: String(G.scores.indexOf(best)) };
  },
};

const server = Server({ games: [Dice], origins: [/^http:\/\/127\.0\.0\.1:\d+$/] });
// Loopback only: boardgame.io's run() listens on every interface; give its listen a host.
const listen = server.app.listen;
server.app.listen = function (p, callback) {
  return listen.call(this, p, "127.0.0.1", callback);
};
await server.run(port, () => process.stdout.write(JSON.stringify({ listening: port }) + "\n"));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
