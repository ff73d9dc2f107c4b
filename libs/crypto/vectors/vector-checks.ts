/**
 * Every entry of crypto-vectors-v1.json as a list of named checks, run through the real library.
 * Shared by the Node unit tests (src/vectors.spec.ts) and the Chromium run (test/browser/vectors.entry.ts),
 * so both runtimes check exactly the same things. Each check throws on the first mismatch.
 */
import * as vc from '../src/index';
import vectorsJson from './crypto-vectors-v1.json';

export interface VectorCheck {
  readonly name: string;
  /** Runs a memory-hard KDF (Argon2id 64 MiB): give it a longer timeout. */
  readonly slow?: boolean;
  run(): Promise<void>;
}

export const vectors = vectorsJson;

function fail(label: string, actual: unknown, expected: unknown): never {
  throw new Error(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

export function expectEqual(actual: unknown, expected: unknown, label: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) fail(label, actual, expected);
}

export async function expectRefusal(
  promise: Promise<unknown> | (() => unknown),
  code: vc.VaultCryptoErrorCode,
  label: string,
): Promise<void> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (e) {
    if (vc.isVaultCryptoError(e, code)) return;
    throw new Error(`${label}: expected VaultCryptoError ${code}, got ${String(e)}`);
  }
  throw new Error(`${label}: expected VaultCryptoError ${code}, but it succeeded`);
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const copy = new Uint8Array(bytes);
  return vc.bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', copy)));
}

/** "byte i = (i*31+7) mod 256" */
export function rulePlaintext(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + 7) & 0xff;
  return out;
}

const hex = (h: string): Uint8Array => vc.hexToBytes(h);

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}

export function buildVectorChecks(): VectorCheck[] {
  const checks: VectorCheck[] = [];
  const add = (name: string, run: () => Promise<void>, slow = false): void => {
    checks.push({ name, run, slow });
  };

  // ---- account ----
  for (const v of vectors.account) {
    const kdf = v.kdfParams.kdf;
    const slow = kdf === 'argon2id';
    const params = (): vc.KdfParams => vc.validateKdfParams(v.kdfParams);
    const passwordKey = once(() => vc.derivePasswordKey(v.password, v.salt, params()));
    const label = `account[${kdf}]`;

    add(`${label} NFC(password) bytes`, async () => {
      expectEqual(
        vc.bytesToHex(vc.utf8ToBytes(v.password.normalize('NFC'))),
        v.passwordNfcHex,
        'passwordNfcHex',
      );
    });
    add(
      `${label} passwordKey`,
      async () => expectEqual(vc.bytesToHex(await passwordKey()), v.passwordKey, 'passwordKey'),
      slow,
    );
    add(
      `${label} authKey = HKDF(passwordKey, vault:v1:auth)`,
      async () =>
        expectEqual(vc.bytesToHex(await vc.hkdf(await passwordKey(), 'vault:v1:auth')), v.authKey, 'authKey'),
      slow,
    );
    add(
      `${label} wrapKey = HKDF(passwordKey, vault:v1:wrap)`,
      async () =>
        expectEqual(vc.bytesToHex(await vc.hkdf(await passwordKey(), 'vault:v1:wrap')), v.wrapKey, 'wrapKey'),
      slow,
    );
    add(`${label} wrappedVaultKey = seal(wrapKey, vaultKey, vault:v1:vault-key)`, async () => {
      const sealed = await vc.seal(
        hex(v.wrapKey),
        hex(v.vaultKey),
        'vault:v1:vault-key',
        hex(v.wrappedVaultKeyIv),
      );
      expectEqual(sealed, v.wrappedVaultKey, 'wrappedVaultKey');
      expectEqual(
        vc.bytesToHex(await vc.open(hex(v.wrapKey), sealed, 'vault:v1:vault-key')),
        v.vaultKey,
        'opened',
      );
    });
    if (kdf === 'pbkdf2-sha256') {
      add(`${label} the NFC spelling of the (NFD) vector password derives the same passwordKey`, async () => {
        const nfc = v.password.normalize('NFC');
        if (nfc === v.password) throw new Error('vector password is expected in NFD form');
        expectEqual(
          vc.bytesToHex(await vc.derivePasswordKey(nfc, v.salt, params())),
          v.passwordKey,
          'NFC passwordKey',
        );
      });
    }
    add(
      `${label} createAccount reproduces salt, kdfParams, authKey, wrappedVaultKey`,
      async () => {
        const acct = await vc.createAccount(v.password, {
          kdfParams: params(),
          salt: v.salt,
          vaultKey: hex(v.vaultKey),
          iv: hex(v.wrappedVaultKeyIv),
        });
        expectEqual(
          {
            salt: acct.salt,
            kdfParams: acct.kdfParams,
            authKey: acct.authKey,
            wrappedVaultKey: acct.wrappedVaultKey,
          },
          { salt: v.salt, kdfParams: v.kdfParams, authKey: v.authKey, wrappedVaultKey: v.wrappedVaultKey },
          'createAccount',
        );
        if (acct.vaultKey.extractable) throw new Error('createAccount vaultKey is extractable');
      },
      slow,
    );
    add(
      `${label} unlockVault gives authKey and a vault key that opens the note vector`,
      async () => {
        const { authKey, vaultKey } = await vc.unlockVault(v.password, {
          salt: v.salt,
          kdfParams: params(),
          wrappedVaultKey: v.wrappedVaultKey,
        });
        expectEqual(authKey, v.authKey, 'authKey');
        if (vaultKey.extractable) throw new Error('unlocked vaultKey is extractable');
        if (v.vaultKey !== vectors.note.vaultKey) throw new Error('vectors disagree on the vault key');
        const note = await vc.decryptNote(vaultKey, vectors.note.encrypted);
        expectEqual(note, vectors.note.plaintext, 'note via unlocked vault key');
      },
      slow,
    );
  }

  // ---- note ----
  const n = vectors.note;
  add('note encryptNote reproduces wrappedDEK, title, content, tags', async () => {
    const vaultKey = await vc.importVaultKey(hex(n.vaultKey));
    const enc = await vc.encryptNote(vaultKey, n.noteId, n.plaintext, {
      dek: hex(n.dek),
      ivs: {
        dek: hex(n.ivs.dek),
        title: hex(n.ivs.title),
        content: hex(n.ivs.content),
        tags: hex(n.ivs.tags),
      },
    });
    expectEqual(enc, n.encrypted, 'encrypted note');
  });
  add('note decryptNote returns the plaintext', async () => {
    const vaultKey = await vc.importVaultKey(hex(n.vaultKey));
    expectEqual(await vc.decryptNote(vaultKey, n.encrypted), n.plaintext, 'decrypted note');
  });
  add('note fields open with the documented AADs', async () => {
    const dek = hex(n.dek);
    expectEqual(
      vc.bytesToHex(await vc.open(hex(n.vaultKey), n.encrypted.wrappedDEK, `vault:v1:note-key:${n.noteId}`)),
      n.dek,
      'dek',
    );
    const title = await vc.open(dek, n.encrypted.title, `vault:v1:note:${n.noteId}:title`);
    expectEqual(vc.bytesToUtf8(title), n.plaintext.title, 'title');
    const tags = await vc.open(dek, n.encrypted.tags[0] ?? '', `vault:v1:note:${n.noteId}:tags`);
    expectEqual(vc.bytesToUtf8(tags), JSON.stringify(n.plaintext.tags), 'tags JSON');
  });

  // ---- file metadata ----
  const f = vectors.fileMeta;
  add('fileMeta encryptFileMetadata reproduces wrappedKey, name, mime, tags', async () => {
    const vaultKey = await vc.importVaultKey(hex(f.vaultKey));
    const { fileKey, ...enc } = await vc.encryptFileMetadata(vaultKey, f.fileId, f.plaintext, {
      fileKey: hex(f.fileKey),
      ivs: { key: hex(f.ivs.key), name: hex(f.ivs.name), mime: hex(f.ivs.mime), tags: hex(f.ivs.tags) },
    });
    expectEqual(enc, f.encrypted, 'encrypted file metadata');
    if (fileKey.extractable) throw new Error('fileKey is extractable');
  });
  add('fileMeta decryptFileMetadata and unwrapFileKey', async () => {
    const vaultKey = await vc.importVaultKey(hex(f.vaultKey));
    expectEqual(await vc.decryptFileMetadata(vaultKey, f.fileId, f.encrypted), f.plaintext, 'metadata');
    const fileKey = await vc.unwrapFileKey(vaultKey, f.fileId, f.encrypted.wrappedKey);
    const name = await vc.open(fileKey, f.encrypted.encryptedName, `vault:v1:file:${f.fileId}:name`);
    expectEqual(vc.bytesToUtf8(name), f.plaintext.name, 'name via unwrapped file key');
  });

  // ---- file content ----
  for (const c of vectors.fileContent) {
    const label = `fileContent[size ${c.originalSize}]`;
    const params = { fileKey: hex(c.fileKey), fileId: c.fileId, iv: c.iv, chunkSize: c.chunkSize };
    add(`${label} sizes, chunk IVs and AADs`, async () => {
      const count = vc.chunkCount(c.originalSize, c.chunkSize);
      expectEqual(vc.encryptedSizeFor(c.originalSize, c.chunkSize), c.encryptedSize, 'encryptedSize');
      expectEqual(vc.plaintextSizeFor(c.encryptedSize, c.chunkSize), c.originalSize, 'plaintextSizeFor');
      const ivs = Array.from({ length: count }, (_, i) => vc.bytesToHex(vc.chunkIv(c.iv, i)));
      const aads = Array.from({ length: count }, (_, i) => vc.chunkAad(c.fileId, i, count));
      expectEqual(ivs, c.chunkIvs, 'chunkIvs');
      expectEqual(aads, c.chunkAads, 'chunkAads');
      expectEqual(await sha256Hex(rulePlaintext(c.originalSize)), c.plaintextSha256, 'plaintextSha256');
    });
    add(`${label} encrypt stream reproduces the ciphertext`, async () => {
      const ct = await vc.encryptFileBytes(params, rulePlaintext(c.originalSize));
      expectEqual(ct.length, c.encryptedSize, 'ciphertext length');
      expectEqual(await sha256Hex(ct), c.ciphertextSha256, 'ciphertextSha256');
      if ('ciphertextHex' in c && typeof c.ciphertextHex === 'string') {
        expectEqual(vc.bytesToHex(ct), c.ciphertextHex, 'ciphertextHex');
      }
    });
    add(`${label} each chunk is seal(fileKey, chunk, aad_i) with iv_i`, async () => {
      const ct = await vc.encryptFileBytes(params, rulePlaintext(c.originalSize));
      const pt = rulePlaintext(c.originalSize);
      let off = 0;
      for (let i = 0; i < c.chunkIvs.length; i++) {
        const plain = pt.subarray(i * c.chunkSize, Math.min(pt.length, (i + 1) * c.chunkSize));
        const part = ct.subarray(off, off + plain.length + 16);
        off += part.length;
        const sealed = `${vc.bytesToHex(part)}:${c.chunkIvs[i]}`;
        const opened = await vc.open(hex(c.fileKey), sealed, c.chunkAads[i] ?? '');
        expectEqual(vc.bytesToHex(opened), vc.bytesToHex(plain), `chunk ${i}`);
      }
      expectEqual(off, ct.length, 'chunks cover the object');
    });
    add(`${label} decrypt stream returns the plaintext`, async () => {
      const ct = await vc.encryptFileBytes(params, rulePlaintext(c.originalSize));
      const pt = await vc.decryptFileBytes({ ...params, size: c.originalSize }, ct);
      expectEqual(await sha256Hex(pt), c.plaintextSha256, 'decrypted plaintextSha256');
    });
  }

  // ---- recovery ----
  const r = vectors.recoveryKey;
  add('recoveryKey text both ways', async () => {
    expectEqual(vc.recoveryKeyToText(hex(r.raw)), r.text, 'recoveryKeyToText');
    expectEqual(vc.bytesToHex(vc.recoveryKeyFromText(r.text)), r.raw, 'recoveryKeyFromText');
    const typed = ` ${r.text.toLowerCase().replace(/-/g, ' ')} `;
    expectEqual(
      vc.bytesToHex(vc.recoveryKeyFromText(typed)),
      r.raw,
      'recoveryKeyFromText (lower case, spaces)',
    );
    expectEqual(r.text.replace(/-/g, '').length, 52, '52 base32 characters');
  });
  add('recoveryKey recoveryAuth and recoveryWrap', async () => {
    expectEqual(await vc.deriveRecoveryAuth(hex(r.raw)), r.recoveryAuth, 'recoveryAuth');
    expectEqual(
      vc.bytesToHex(await vc.hkdf(hex(r.raw), 'vault:v1:recovery-wrap')),
      r.recoveryWrap,
      'recoveryWrap',
    );
  });
  add('recoveryKey createRecoveryMaterial reproduces recoveryWrappedVaultKey', async () => {
    const m = await vc.createRecoveryMaterial(hex(r.raw), hex(r.vaultKey), hex(r.ivRecoveryWrap));
    expectEqual(
      m,
      { recoveryAuth: r.recoveryAuth, recoveryWrappedVaultKey: r.recoveryWrappedVaultKey },
      'material',
    );
  });
  add('recoveryKey openRecoveryVaultKey returns the vault key', async () => {
    const raw = await vc.openRecoveryVaultKey(vc.recoveryKeyFromText(r.text), r.recoveryWrappedVaultKey);
    expectEqual(vc.bytesToHex(raw), r.vaultKey, 'vaultKey');
  });

  // ---- security answers ----
  const a = vectors.securityAnswers;
  add('securityAnswers normalisation', async () => {
    expectEqual(a.answers.map(vc.normalizeAnswer), a.normalized, 'normalized');
  });
  add(
    'securityAnswers answersAuth',
    async () => {
      expectEqual(
        await vc.deriveAnswersAuth(a.answers, a.salt, vc.validateKdfParams(a.kdfParams)),
        a.answersAuth,
        'answersAuth',
      );
    },
    a.kdfParams.kdf === 'argon2id',
  );

  return checks;
}

/** A few refusals, so the browser run proves the failure paths too (the unit tests cover all of them). */
export function buildRefusalChecks(): VectorCheck[] {
  const n = vectors.note;
  const c = vectors.fileContent[4] ?? vectors.fileContent[0];
  if (!c) throw new Error('no fileContent vectors');
  const params = {
    fileKey: hex(c.fileKey),
    fileId: c.fileId,
    iv: c.iv,
    chunkSize: c.chunkSize,
    size: c.originalSize,
  };
  const ciphertext = once(() => vc.encryptFileBytes(params, rulePlaintext(c.originalSize)));
  const flip = (s: string, at: number): string =>
    s.slice(0, at) + (s[at] === '0' ? '1' : '0') + s.slice(at + 1);
  return [
    {
      name: 'refuses a flipped bit in a sealed note title',
      run: () =>
        expectRefusal(
          vc.open(hex(n.dek), flip(n.encrypted.title, 3), `vault:v1:note:${n.noteId}:title`),
          'DECRYPT_FAILED',
          'flipped',
        ),
    },
    {
      name: 'refuses a note title moved to content',
      run: () =>
        expectRefusal(
          vc
            .importVaultKey(hex(n.vaultKey))
            .then((k) => vc.decryptNote(k, { ...n.encrypted, content: n.encrypted.title })),
          'DECRYPT_FAILED',
          'moved field',
        ),
    },
    {
      name: 'refuses a truncated file stream',
      run: async () => {
        const ct = await ciphertext();
        await expectRefusal(
          vc.decryptFileBytes(params, ct.subarray(0, 65552)),
          'STREAM_TRUNCATED',
          'truncated',
        );
      },
    },
    {
      name: 'refuses an extended file stream',
      run: async () => {
        const ct = await ciphertext();
        const longer = new Uint8Array(ct.length + 16);
        longer.set(ct);
        await expectRefusal(vc.decryptFileBytes(params, longer), 'STREAM_EXTENDED', 'extended');
      },
    },
    {
      name: 'refuses reordered file chunks',
      run: async () => {
        const ct = await ciphertext();
        const swapped = new Uint8Array(ct);
        swapped.set(ct.subarray(65552, 131104), 0);
        swapped.set(ct.subarray(0, 65552), 65552);
        await expectRefusal(vc.decryptFileBytes(params, swapped), 'DECRYPT_FAILED', 'reordered');
      },
    },
    {
      name: 'refuses argon2id parameters below the floor',
      run: () =>
        expectRefusal(
          () => vc.validateKdfParams({ kdf: 'argon2id', memoryKiB: 1024, iterations: 3, parallelism: 4 }),
          'KDF_PARAMS_REJECTED',
          'floor',
        ),
    },
  ];
}
