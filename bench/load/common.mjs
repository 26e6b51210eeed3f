// What the load generators share: options, a seeded random, figures.

import { performance } from "node:perf_hooks";

// --name value pairs over the defaults (numbers stay numbers); only loopback targets.
export function options(argv, defaults) {
  const o = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "").replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    const value = argv[i + 1];
    if (!(key in defaults)) throw new Error(`unknown option ${argv[i]} (known: ${Object.keys(defaults).join(", ")})`);
    if (value === undefined) throw new Error(`${argv[i]} needs a value`);
    o[key] = typeof defaults[key] === "number" ? Number(value) : typeof defaults[key] === "boolean" ? value === "1" || value === "true" : value;
  }
  if (!["human", "max"].includes(o.pace)) throw new Error("--pace is human or max");
  const target = new URL(o.url);
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(target.hostname)) {
    throw new Error(`only loopback targets: ${target.hostname}`);
  }
  o.host = target.hostname.replace(/^\[|\]$/g, "");
  o.port = parseInt(target.port || "80", 10);
  o.origin = `${target.protocol}//${target.host}`;
  return o;
}

export const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const now = () => performance.now();

// mulberry32: the same choices for the same seed and order of calls.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A person's pause before a move (human pace), or none (max).
export function thinker(o, random) {
  return () => (o.pace === "human" ? (o.thinkMin + random() * (o.thinkMax - o.thinkMin)) * 1000 : 0);
}

// p50/p95/p99/max of a list of milliseconds.
export function summary(values) {
  const xs = Float64Array.from(values).sort();
  const q = (p) => (xs.length ? xs[Math.min(xs.length - 1, Math.round((p / 100) * (xs.length - 1)))] : null);
  return { p50: q(50), p95: q(95), p99: q(99), max: q(100), n: xs.length };
}

// The generator's own CPU over a window: ms, and the share of one core.
export function cpuSince(start, wallStart) {
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000;
  return { generator_cpu_ms: ms, generator_cpu_share: ms / (performance.now() - wallStart) };
}
