/**
 * The crypto Worker's self-test (issue 15, the dashboard's Crypto suite): the published protocol
 * vectors (libs/crypto/vectors, bundled into this chunk), the standards' known answers, and
 * the refusals the vault relies on (an altered tag, a wrong AAD, a truncated or reordered file
 * stream), all in the Worker and with the @vault/crypto the vault uses.
 */
import { AAD, decryptFileBytes, encryptFileBytes, hexToBytes, open, type ItemId } from '@vault/crypto';
import { buildVectorChecks, expectRefusal, rulePlaintext, sha256Hex, vectors } from '@vault/crypto/vectors';
import { benchmarkAesGcm, benchmarkKdf, benchmarkNoteDecrypt } from './crypto-benchmark';
import {
  aesGcmCases,
  argon2idCases,
  hkdfCases,
  pbkdf2Cases,
  type SelfTestCaseDefinition,
} from './crypto-known-answers';
import type {
  CryptoSelfTestService,
  SelfTestCase,
  SelfTestId,
  SelfTestOptions,
  SelfTestReport,
} from './crypto-self-test-service';

const hex = hexToBytes;

/** Every protocol vector check; the 64 MiB Argon2id ones only outside Quick Test. */
const vectorCases = (): SelfTestCaseDefinition[] =>
  buildVectorChecks().map((check) => ({ name: check.name, fullOnly: check.slow, run: () => check.run() }));

/** The note vector's title: sealed, its AAD and its key. */
function noteTitle() {
  const n = vectors.note;
  return { sealed: n.encrypted.title, aad: AAD.noteField(n.noteId as ItemId, 'title'), dek: hex(n.dek), n };
}

/** Flips the lowest bit of byte `index` of a sealed value's `ciphertext || tag` part. */
function flipByte(sealed: string, index: number): string {
  const [data = '', iv = ''] = sealed.split(':');
  const bytes = hex(data);
  const at = index < 0 ? bytes.length + index : index;
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  return `${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}:${iv}`;
}

/** The 3-chunk file vector: its stream parameters, ciphertext and chunk size on the wire. */
async function threeChunkFile() {
  const c = vectors.fileContent.find((v) => v.chunkIvs.length >= 3);
  if (!c) throw new Error('the bundled vectors have no file of three chunks');
  const params = { fileKey: hex(c.fileKey), fileId: c.fileId, iv: c.iv, chunkSize: c.chunkSize };
  const ciphertext = await encryptFileBytes(params, rulePlaintext(c.originalSize));
  return { c, params: { ...params, size: c.originalSize }, ciphertext, sealedChunk: c.chunkSize + 16 };
}

const controlOpens: SelfTestCaseDefinition = {
  name: 'control: the untouched note title opens',
  run: async () => {
    const t = noteTitle();
    const title = new TextDecoder().decode(await open(t.dek, t.sealed, t.aad));
    if (title !== t.n.plaintext.title) throw new Error('the untouched title did not open to its plaintext');
  },
};

const controlFileOpens: SelfTestCaseDefinition = {
  name: 'control: the untouched 3-chunk file stream decrypts',
  run: async () => {
    const f = await threeChunkFile();
    const plain = await decryptFileBytes(f.params, f.ciphertext);
    if ((await sha256Hex(plain)) !== f.c.plaintextSha256)
      throw new Error('the file decrypted to other bytes');
  },
};

const negativeCases: Record<
  'flipped-tag' | 'wrong-aad' | 'truncated-stream' | 'reordered-chunk',
  () => SelfTestCaseDefinition[]
> = {
  'flipped-tag': () => [
    controlOpens,
    {
      name: 'a flipped bit in the last tag byte of a note title is refused',
      run: () => {
        const t = noteTitle();
        return expectRefusal(open(t.dek, flipByte(t.sealed, -1), t.aad), 'DECRYPT_FAILED', 'flipped tag');
      },
    },
    {
      name: 'a flipped bit in the first tag byte of a file chunk is refused',
      fullOnly: true,
      run: async () => {
        const f = await threeChunkFile();
        const altered = new Uint8Array(f.ciphertext);
        const firstTagByte = f.c.chunkSize;
        altered[firstTagByte] = (altered[firstTagByte] ?? 0) ^ 0x01;
        await expectRefusal(decryptFileBytes(f.params, altered), 'DECRYPT_FAILED', 'flipped chunk tag');
      },
    },
  ],
  'wrong-aad': () => [
    controlOpens,
    {
      name: "a note title opened as the note's content (wrong field in the AAD) is refused",
      run: () => {
        const t = noteTitle();
        const aad = AAD.noteField(t.n.noteId as ItemId, 'content');
        return expectRefusal(open(t.dek, t.sealed, aad), 'DECRYPT_FAILED', 'wrong field');
      },
    },
    {
      name: "a note title opened under another note's id is refused",
      fullOnly: true,
      run: () => {
        const t = noteTitle();
        const aad = AAD.noteField(vectors.fileMeta.fileId as ItemId, 'title');
        return expectRefusal(open(t.dek, t.sealed, aad), 'DECRYPT_FAILED', 'wrong item');
      },
    },
  ],
  'truncated-stream': () => [
    controlFileOpens,
    {
      name: 'a file stream without its last chunk is refused',
      run: async () => {
        const f = await threeChunkFile();
        const cut = f.ciphertext.subarray(0, 2 * f.sealedChunk);
        await expectRefusal(decryptFileBytes(f.params, cut), 'STREAM_TRUNCATED', 'truncated');
      },
    },
  ],
  'reordered-chunk': () => [
    controlFileOpens,
    {
      name: 'a file stream with its first two chunks swapped is refused',
      run: async () => {
        const f = await threeChunkFile();
        const swapped = new Uint8Array(f.ciphertext);
        swapped.set(f.ciphertext.subarray(f.sealedChunk, 2 * f.sealedChunk), 0);
        swapped.set(f.ciphertext.subarray(0, f.sealedChunk), f.sealedChunk);
        await expectRefusal(decryptFileBytes(f.params, swapped), 'DECRYPT_FAILED', 'reordered');
      },
    },
  ],
};

const SELF_TESTS: Record<SelfTestId, () => SelfTestCaseDefinition[]> = {
  vectors: vectorCases,
  'aes-gcm': aesGcmCases,
  hkdf: hkdfCases,
  pbkdf2: pbkdf2Cases,
  argon2id: argon2idCases,
  ...negativeCases,
};

/** Runs one self-test's cases in order; stops between cases when `signal` aborts. */
export async function runSelfTest(
  id: SelfTestId,
  options: SelfTestOptions,
  signal?: AbortSignal,
): Promise<SelfTestReport> {
  const build = SELF_TESTS[id];
  if (!build) throw new Error(`Unknown self-test: ${String(id)}`);
  const planned = build();
  const cases: SelfTestCase[] = [];
  for (const item of planned) {
    if (options.quick && item.fullOnly) continue;
    signal?.throwIfAborted();
    const started = performance.now();
    try {
      await item.run();
      cases.push({ name: item.name, passed: true, ms: performance.now() - started });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      cases.push({ name: item.name, passed: false, message, ms: performance.now() - started });
    }
  }
  return { id, cases, skipped: planned.length - cases.length };
}

/** What the crypto Worker serves besides CryptoOps (crypto.worker.ts). */
export const cryptoSelfTestOps: CryptoSelfTestService = {
  runSelfTest,
  benchmarkKdf,
  benchmarkAesGcm,
  benchmarkNoteDecrypt,
};
