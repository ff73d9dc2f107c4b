#!/usr/bin/env node
// Sign-in benchmark: `POST /api/auth/login` through the gateway against a baseline measured in the same
// run, the same request sent straight to the auth service over its RPC (pattern 'auth.login'). Gateway and
// direct rounds are interleaved (ABBA) so that machine noise hits both alike; only the ratios are meant to
// be compared between runs.
//
//   node bench/signin.bench.mjs --base http://127.0.0.1:8080 --auth-host 127.0.0.1 --auth-port 4001 \
//     [--concurrency 8] [--rounds 4] [--round-seconds 2] [--round-requests 5000] [--warmup 16] [--json out.json]
//
// The stack must be up. The gateway's auth rate limit must be raised for the run (the harness passes a high
// RATE_LIMIT_AUTH_PER_MINUTE); the per-IP failure throttle and the lockout count failures only, and every
// sign-in here succeeds. The password never reaches the server (docs/crypto-protocol.md "Account keys"):
// any 32-byte authKey stands for one, so the account is made with random key material and no client-side
// KDF is timed.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseFlags } from './lib/flags.mjs';
import { emitResult } from './lib/output.mjs';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { ClientProxyFactory, Transport } = require('@nestjs/microservices');
const { firstValueFrom, timeout } = require('rxjs');

function parseArgs(argv) {
  const opts = {
    base: 'http://127.0.0.1:8080',
    authHost: '127.0.0.1',
    authPort: 4001,
    concurrency: 8,
    rounds: 4,
    roundSeconds: 2,
    roundRequests: 5000,
    warmup: 16,
    json: undefined,
  };
  const names = {
    '--base': ['base', String],
    '--auth-host': ['authHost', String],
    '--auth-port': ['authPort', Number],
    '--concurrency': ['concurrency', Number],
    '--rounds': ['rounds', Number],
    '--round-seconds': ['roundSeconds', Number],
    '--round-requests': ['roundRequests', Number],
    '--warmup': ['warmup', Number],
    '--json': ['json', String],
  };
  parseFlags(argv, opts, names);
  if (opts.concurrency < 1 || opts.rounds < 1)
    throw new Error('--concurrency and --rounds must be at least 1');
  return opts;
}

/** One JSON POST over a keep-alive agent; resolves with status and parsed body. */
function postJson(agent, url, body) {
  const payload = Buffer.from(JSON.stringify(body));
  const u = new URL(url);
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      u,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          'user-agent': 'vault-bench/signin',
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: json, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

function summarize(samples) {
  const sorted = [...samples.latencies].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / (sorted.length || 1);
  return {
    requests: sorted.length + samples.errors,
    ok: sorted.length,
    errors: samples.errors,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    meanMs: round(mean),
    throughputRps: round(sorted.length / (samples.elapsedMs / 1000)),
    seconds: round(samples.elapsedMs / 1000),
  };
}

function round(n, digits = 2) {
  return Number.isFinite(n) ? Number(n.toFixed(digits)) : null;
}

/** Runs `op` from `concurrency` workers until the time or request budget is spent. */
async function runRound(op, { concurrency, seconds, maxRequests }) {
  const latencies = [];
  const errorSamples = [];
  let errors = 0;
  let started = 0;
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  async function worker() {
    while (performance.now() < deadline && started < maxRequests) {
      started += 1;
      const s = performance.now();
      try {
        await op();
        latencies.push(performance.now() - s);
      } catch (error) {
        errors += 1;
        if (errorSamples.length < 5)
          errorSamples.push(error instanceof Error ? error.message : String(error));
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, errors, errorSamples, elapsedMs: performance.now() - t0 };
}

function mergeRounds(rounds) {
  return {
    latencies: rounds.flatMap((r) => r.latencies),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
    errorSamples: rounds.flatMap((r) => r.errorSamples).slice(0, 5),
    elapsedMs: rounds.reduce((s, r) => s + r.elapsedMs, 0),
  };
}

function printTable(rows) {
  const cols = ['path', 'requests', 'errors', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms', 'req/s'];
  const lines = rows.map((r) => [
    r.path,
    r.requests,
    r.errors,
    r.p50Ms,
    r.p95Ms,
    r.p99Ms,
    r.meanMs,
    r.throughputRps,
  ]);
  const widths = cols.map((c, i) => Math.max(c.length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(fmt(cols));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const agent = new (opts.base.startsWith('https:') ? https : http).Agent({
    keepAlive: true,
    maxSockets: opts.concurrency,
  });

  // One account, made with random key material (the server only ever sees an authKey).
  const id = `bench_${randomBytes(5).toString('hex')}`;
  const authKey = randomBytes(32).toString('hex');
  const signup = await postJson(agent, `${opts.base}/api/auth/signup`, {
    username: id,
    email: `${id}@example.com`,
    // Phone numbers are unique per account.
    phoneNumber: `+1 555 ${randomBytes(4).readUInt32BE(0)}`,
    authKey,
    salt: randomBytes(16).toString('hex'),
    kdfParams: { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 },
    wrappedVaultKey: `${randomBytes(48).toString('hex')}:${randomBytes(12).toString('hex')}`,
  });
  if (signup.status !== 201)
    throw new Error(`sign-up failed: HTTP ${signup.status} ${signup.text.slice(0, 300)}`);
  const credentials = { identifier: id, authKey };

  const rpc = ClientProxyFactory.create({
    transport: Transport.TCP,
    options: { host: opts.authHost, port: opts.authPort },
  });
  await rpc.connect();

  const paths = {
    gateway: async () => {
      const res = await postJson(agent, `${opts.base}/api/auth/login`, credentials);
      if (res.status !== 200 || typeof res.body?.access !== 'string') {
        throw new Error(`gateway: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      }
    },
    direct: async () => {
      const reply = await firstValueFrom(
        rpc
          .send('auth.login', {
            ctx: { requestId: randomUUID(), ip: '127.0.0.1', userAgent: 'bench' },
            body: credentials,
          })
          .pipe(timeout(30_000)),
      );
      const access = reply?.body?.access ?? reply?.access;
      if (typeof access !== 'string')
        throw new Error(`direct: unexpected reply ${JSON.stringify(reply).slice(0, 200)}`);
    },
  };

  try {
    // Warm-up: connections, JIT, pools; not measured.
    for (const op of Object.values(paths)) {
      await runRound(op, { concurrency: opts.concurrency, seconds: 30, maxRequests: opts.warmup });
    }

    // ABBA interleaving: G D D G G D D G ...
    const rounds = { gateway: [], direct: [] };
    for (let i = 0; i < opts.rounds; i += 1) {
      const order = i % 2 === 0 ? ['gateway', 'direct'] : ['direct', 'gateway'];
      for (const name of order) {
        const r = await runRound(paths[name], {
          concurrency: opts.concurrency,
          seconds: opts.roundSeconds,
          maxRequests: opts.roundRequests,
        });
        rounds[name].push(r);
        const s = summarize(r);
        console.log(
          `round ${i + 1}/${opts.rounds} ${name.padEnd(7)} ${String(s.ok).padStart(5)} ok  p50 ${s.p50Ms} ms  ${s.throughputRps} req/s`,
        );
      }
    }

    const merged = { gateway: mergeRounds(rounds.gateway), direct: mergeRounds(rounds.direct) };
    const gateway = summarize(merged.gateway);
    const direct = summarize(merged.direct);
    const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
    const ratios = {
      p50Latency: ratio(gateway.p50Ms, direct.p50Ms),
      p95Latency: ratio(gateway.p95Ms, direct.p95Ms),
      meanLatency: ratio(gateway.meanMs, direct.meanMs),
      throughput: ratio(gateway.throughputRps, direct.throughputRps),
    };

    console.log('');
    printTable([
      { path: 'gateway (HTTP)', ...gateway },
      { path: 'direct (RPC)', ...direct },
    ]);
    console.log('');
    console.log(
      `gateway / direct: p50 latency ${ratios.p50Latency}x, p95 latency ${ratios.p95Latency}x, throughput ${ratios.throughput}x`,
    );
    for (const [name, m] of Object.entries(merged)) {
      for (const sample of m.errorSamples) console.log(`error (${name}): ${sample}`);
    }

    const result = {
      bench: 'signin',
      at: new Date().toISOString(),
      config: {
        base: opts.base,
        auth: `${opts.authHost}:${opts.authPort}`,
        concurrency: opts.concurrency,
        rounds: opts.rounds,
        roundSeconds: opts.roundSeconds,
        roundRequests: opts.roundRequests,
      },
      gateway,
      direct,
      ratios,
    };
    emitResult(result, opts.json);

    const total = gateway.requests + direct.requests;
    const failed = gateway.errors + direct.errors;
    if (gateway.ok === 0 || direct.ok === 0 || failed > total * 0.01) {
      console.error(`too many failed sign-ins: ${failed} of ${total}`);
      process.exitCode = 1;
    }
  } finally {
    await rpc.close();
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
