// Benchmarks @vault/crypto (the BUILT lib, libs/crypto/dist) against the raw primitives it wraps, in one run:
//   (a) Argon2id with the default parameters (64 MiB / 3 / 4): derivePasswordKey vs a raw hash-wasm call;
//       PBKDF2-SHA256 600k: derivePasswordKey vs raw crypto.subtle.deriveBits.
//   (b) AES-256-GCM throughput over 64 MiB in 64 KiB chunks: the lib's encrypt / decrypt streams vs raw
//       crypto.subtle.encrypt / decrypt of 64 KiB chunks in a sequential loop (and, for reference, a raw loop
//       that keeps 4 chunks in flight, as the lib's streams do by default).
// Warm-up, then several rounds, median. Prints a table and lib/raw ratios; the JSON result is the last line
// of stdout, or goes to the file given by --json <file>. Runtime is bounded (< 60 s).
//
//   npx tsc -b libs/crypto/tsconfig.json && node bench/crypto.bench.mjs [--json out.json] [--mib 64]
import { webcrypto } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { TextEncoder } from 'node:util';
import { ReadableStream } from 'node:stream/web';
import { argon2id } from 'hash-wasm';

const BUDGET_MS = 50_000;
const started = performance.now();
const subtle = webcrypto.subtle;

function arg(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const jsonPath = arg('--json');
const mib = Number(arg('--mib') ?? 64);
if (!Number.isInteger(mib) || mib < 1 || mib > 1024) {
  console.error('--mib must be an integer from 1 to 1024');
  process.exit(2);
}

let vc;
try {
  vc = await import('@vault/crypto');
} catch (e) {
  console.error(
    `Cannot load @vault/crypto (${e?.code ?? e}). Build it first: npx tsc -b libs/crypto/tsconfig.json ` +
      '(the npm workspace links node_modules/@vault/crypto to libs/crypto, whose main is dist/index.js).',
  );
  process.exit(2);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Runs the variants round-robin (rotating which goes first) so that every round measures all of them under the
 * same conditions (GC state, CPU frequency, a noisy neighbour): one warm-up round, then up to `rounds` timed
 * rounds (at least `minRounds`; fewer than `rounds` only when over the time budget). Median per variant.
 */
async function measureInterleaved(variants, { rounds = 5, minRounds = 3 } = {}) {
  const names = Object.keys(variants);
  for (const name of names) await variants[name]();
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    if (round >= minRounds && performance.now() - started > BUDGET_MS) break;
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const t0 = performance.now();
      await variants[name]();
      times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const t = times[name];
      return [name, { medianMs: median(t), rounds: t.length, minMs: Math.min(...t), maxMs: Math.max(...t) }];
    }),
  );
}

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const password = 'Corréct-Horse-9';
const saltHex = '101112131415161718191a1b1c1d1e1f';
const salt = Buffer.from(saltHex, 'hex');
const pwBytes = new TextEncoder().encode(password.normalize('NFC'));
const results = { node: process.version, cpus: cpus().length, kdf: {}, aesGcm: {} };

// ---- (b) AES-GCM (run first: the Argon2id runs leave 64 MiB WASM heaps for the GC) 64 KiB chunks over `mib` MiB ----
const CHUNK = 65536;
const size = mib * 1024 * 1024;
const fileId = '9c8b7a65-4321-4fed-bcba-0123456789ab';
const fileIv = Buffer.from('b0b1b2b3b4b5b6b7b8b9babb', 'hex');
const fileKeyRaw = webcrypto.getRandomValues(new Uint8Array(32));
const rawKey = await subtle.importKey('raw', fileKeyRaw, 'AES-GCM', false, ['encrypt', 'decrypt']);
const libKey = await vc.importVaultKey(fileKeyRaw);
const block = vc.randomBytes(1024 * 1024);
const pieceSize = 1024 * 1024; // the app reads files in ~1 MiB slices; the transform cuts 64 KiB chunks
const n = vc.chunkCount(size, CHUNK);
const encoder = new TextEncoder();
const chunkIv = (i) => {
  const iv = new Uint8Array(12);
  iv.set(fileIv.subarray(0, 8));
  new DataView(iv.buffer).setUint32(8, i, false);
  return iv;
};
const chunkAad = (i) => encoder.encode(`vault:v1:file:${fileId}:chunk:${i}:${i === n - 1 ? 'last' : 'more'}`);
const plainChunk = (i) => block.subarray((i * CHUNK) % block.length, ((i * CHUNK) % block.length) + CHUNK);

function plaintextSource() {
  let produced = 0;
  return new ReadableStream({
    pull(controller) {
      if (produced >= size) return controller.close();
      const len = Math.min(pieceSize, size - produced);
      controller.enqueue(block.subarray(0, len));
      produced += len;
    },
  });
}

function piecesSource(pieces) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i >= pieces.length) return controller.close();
      controller.enqueue(pieces[i++]);
    },
  });
}

async function drain(readable, keep) {
  let total = 0;
  for await (const chunk of readable) {
    total += chunk.length;
    if (keep) keep.push(chunk);
  }
  return total;
}

const streamParams = { fileKey: libKey, fileId, iv: fileIv, size };
const ciphertextPieces = [];
const encTotal = await drain(
  plaintextSource().pipeThrough(vc.createEncryptStream(streamParams)),
  ciphertextPieces,
);
if (encTotal !== vc.encryptedSizeFor(size)) throw new Error('encrypt stream produced the wrong size');
// Regroup the stored object into ~1 MiB pieces, as a download would deliver it.
const stored = Buffer.concat(ciphertextPieces);
ciphertextPieces.length = 0;
const storedPieces = [];
for (let off = 0; off < stored.length; off += pieceSize)
  storedPieces.push(stored.subarray(off, off + pieceSize));
const rawCipherChunks = [];
for (let i = 0, off = 0; i < n; i++) {
  const len = Math.min(CHUNK, size - i * CHUNK) + 16;
  rawCipherChunks.push(stored.subarray(off, off + len));
  off += len;
}

// The raw baseline: chunk i sealed or opened straight with subtle, the lib's IVs and AADs.
const gcmParams = (i) => ({ name: 'AES-GCM', iv: chunkIv(i), additionalData: chunkAad(i) });
const encryptChunk = (i) => subtle.encrypt(gcmParams(i), rawKey, plainChunk(i));
const decryptChunk = (i) => subtle.decrypt(gcmParams(i), rawKey, rawCipherChunks[i]);

/** Every chunk through `op`, one at a time. */
async function rawSequential(op) {
  for (let i = 0; i < n; i++) await op(i);
}

/** Every chunk through `op`, four in flight. */
async function rawFourInFlight(op) {
  const inFlight = [];
  for (let i = 0; i < n; i++) {
    inFlight.push(op(i));
    if (inFlight.length >= 4) await inFlight.shift();
  }
  await Promise.all(inFlight);
}

const aes = {
  libEncrypt: async () => {
    const out = await drain(plaintextSource().pipeThrough(vc.createEncryptStream(streamParams)));
    if (out !== stored.length) throw new Error('size');
  },
  libDecrypt: async () => {
    const out = await drain(piecesSource(storedPieces).pipeThrough(vc.createDecryptStream(streamParams)));
    if (out !== size) throw new Error('size');
  },
  rawEncrypt: () => rawSequential(encryptChunk),
  rawDecrypt: () => rawSequential(decryptChunk),
  rawEncrypt4: () => rawFourInFlight(encryptChunk),
  rawDecrypt4: () => rawFourInFlight(decryptChunk),
};
// Check the raw loop agrees with the stored object for the first chunk.
const c0 = new Uint8Array(await encryptChunk(0));
if (hex(c0) !== hex(rawCipherChunks[0])) throw new Error('raw AES-GCM loop and lib stream disagree');

const mbps = (ms) => size / 1e6 / (ms / 1000);
const aesTimes = await measureInterleaved(aes, { rounds: 9, minRounds: 3 });
for (const m of Object.values(aesTimes)) m.mbPerS = mbps(m.medianMs);
/** One direction's throughputs (`Encrypt` or `Decrypt`): the lib beside the two raw loops. */
const aesDirection = (op) => {
  const [lib, raw, raw4] = [`lib${op}`, `raw${op}`, `raw${op}4`].map((k) => aesTimes[k].mbPerS);
  return {
    libMBps: lib,
    rawSequentialMBps: raw,
    raw4InFlightMBps: raw4,
    throughputRatioLibOverRaw: lib / raw,
    throughputRatioLibOverRaw4: lib / raw4,
  };
};
results.aesGcm = {
  bytes: size,
  chunkSize: CHUNK,
  runs: aesTimes,
  encrypt: aesDirection('Encrypt'),
  decrypt: aesDirection('Decrypt'),
};
// ---- (a) KDFs ----
const argonParams = vc.DEFAULT_KDF_PARAMS;
const rawArgon = () =>
  argon2id({
    password: pwBytes,
    salt,
    parallelism: argonParams.parallelism,
    iterations: argonParams.iterations,
    memorySize: argonParams.memoryKiB,
    hashLength: 32,
    outputType: 'binary',
  });
const libArgon = () => vc.derivePasswordKey(password, saltHex, argonParams);
if (hex(await rawArgon()) !== hex(await libArgon())) throw new Error('Argon2id: lib and raw disagree');

const pbkdf2Params = { kdf: 'pbkdf2-sha256', iterations: 600000 };
const rawPbkdf2 = async () => {
  const base = await subtle.importKey('raw', pwBytes, 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(
    await subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: pbkdf2Params.iterations },
      base,
      256,
    ),
  );
};
const libPbkdf2 = () => vc.derivePasswordKey(password, saltHex, pbkdf2Params);
if (hex(await rawPbkdf2()) !== hex(await libPbkdf2())) throw new Error('PBKDF2: lib and raw disagree');

for (const [name, lib, raw] of [
  ['argon2id 65536KiB/3/4', libArgon, rawArgon],
  ['pbkdf2-sha256 600k', libPbkdf2, rawPbkdf2],
]) {
  const m = await measureInterleaved({ lib, raw }, { rounds: 7, minRounds: 3 });
  results.kdf[name] = { lib: m.lib, raw: m.raw, timeRatioLibOverRaw: m.lib.medianMs / m.raw.medianMs };
}

results.totalSeconds = (performance.now() - started) / 1000;

// ---- report ----
const pad = (s, w) => String(s).padEnd(w);
const num = (x, d = 1) => x.toFixed(d);
console.log(`@vault/crypto bench — Node ${process.version}, ${results.cpus} CPUs`);
console.log('');
console.log(`${pad('KDF', 24)}${pad('lib median ms', 15)}${pad('raw median ms', 15)}time ratio lib/raw`);
for (const [name, r] of Object.entries(results.kdf)) {
  console.log(
    `${pad(name, 24)}${pad(num(r.lib.medianMs), 15)}${pad(num(r.raw.medianMs), 15)}${num(r.timeRatioLibOverRaw, 3)}`,
  );
}
console.log('');
console.log(`AES-256-GCM, ${mib} MiB in 64 KiB chunks (MB = 10^6 bytes of plaintext)`);
console.log(
  `${pad('', 10)}${pad('lib stream MB/s', 17)}${pad('raw seq MB/s', 14)}${pad('raw 4-flight MB/s', 19)}${pad('lib/raw seq', 13)}lib/raw 4-flight`,
);
for (const dir of ['encrypt', 'decrypt']) {
  const r = results.aesGcm[dir];
  console.log(
    `${pad(dir, 10)}${pad(num(r.libMBps), 17)}${pad(num(r.rawSequentialMBps), 14)}${pad(num(r.raw4InFlightMBps), 19)}` +
      `${pad(num(r.throughputRatioLibOverRaw, 3), 13)}${num(r.throughputRatioLibOverRaw4, 3)}`,
  );
}
console.log('');
console.log(`total ${num(results.totalSeconds)} s`);
if (jsonPath) {
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`JSON written to ${jsonPath}`);
} else {
  console.log(JSON.stringify(results));
}
