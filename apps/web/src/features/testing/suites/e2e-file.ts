import {
  fileCountsResponseSchema,
  fileEncryptionMetadataSchema,
  storageTypesResponseSchema,
  type FileDto,
} from '@vault/contracts';
import type { SealedUploadFields, UploadInput } from '../../../workers/files-messages';
import type { TestingContext } from '../model/context';
import type { CheckOutcome } from '../model/suite';
import { isApiError } from '../../../lib/api-client';
import { completeUpload, createUpload, getDownloadUrl } from '../../../lib/files-api';
import { describeFailure, isAbort, passed, throwIfAborted, warning } from './check-helpers';
import {
  StepFailed,
  canary,
  containsBytes,
  expectGone,
  getParsed,
  step,
  withTemporaryItem,
} from './e2e-steps';

/** A signed storage URL as an absolute http(s) URL (relative ones are the API's own blob route). */
function storageUrl(ctx: TestingContext, url: string): string {
  const resolved = new URL(url, new URL(ctx.config.apiBaseUrl, ctx.pageUrl));
  if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:') {
    throw new StepFailed('The server signed a storage address that is not http(s)');
  }
  return resolved.href;
}

/** Seals and stores the bytes as an upload does: parts from the Worker, or one PUT of the staged ciphertext. */
async function store(
  ctx: TestingContext,
  key: CryptoKey,
  input: UploadInput,
  fileId: string,
  fields: SealedUploadFields,
) {
  const { signal } = ctx;
  const types = await getParsed(ctx, '/files/storage-types', storageTypesResponseSchema);
  const signed = await step('POST /api/files/upload-url', () =>
    createUpload(ctx.api, fields, types.default, { signal }),
  );
  throwIfAborted(signal);
  const url = storageUrl(ctx, signed.uploadUrl);
  if (signed.partSize) {
    await step('Sending the sealed parts', () =>
      ctx.filesCrypto.sendUpload(key, fields, input, { url, partSize: signed.partSize! }),
    );
  } else {
    const prepared = await step('Sealing the file', () => ctx.filesCrypto.stageUpload(key, fields, input));
    try {
      throwIfAborted(signal);
      const res = await ctx.fetch(url, {
        method: 'PUT',
        body: prepared.ciphertext,
        headers: { 'Content-Type': 'application/octet-stream' },
        credentials: 'omit',
        signal,
      });
      if (!res.ok) throw new StepFailed(`The storage refused the upload (${res.status})`);
    } finally {
      void ctx.filesCrypto.releaseUpload(prepared).catch(() => undefined);
    }
  }
  throwIfAborted(signal);
  ctx.log(`stored ${fileId} (${types.default})`);
  return step('POST /api/files/upload-complete', () =>
    completeUpload(ctx.api, fileId, undefined, { signal }),
  );
}

/** How far the stored bytes were checked: not asked (no password dialog), skipped, or checked. */
type ContentCheck = 'not-asked' | 'skipped' | 'refused' | 'checked';
const REFUSED = 'refused';

/** A wrong password (401 INVALID_PASSWORD) or a password lockout (423): the user's answer, not the server's fault. */
const refusedPassword = (error: unknown) =>
  isApiError(error) && ((error.status === 401 && error.code === 'INVALID_PASSWORD') || error.status === 423);

/** A signed download URL, or 'refused' when the password was not accepted. */
async function downloadUrl(ctx: TestingContext, fileId: string, authKey: string): Promise<string> {
  const what = 'POST /api/files/{id}/download-url';
  try {
    return (await getDownloadUrl(ctx.api, fileId, { authKey }, { signal: ctx.signal })).downloadUrl;
  } catch (error) {
    if (isAbort(error)) throw error;
    if (!refusedPassword(error)) throw new StepFailed(describeFailure(what, error));
    ctx.log(`download skipped: ${describeFailure(what, error)}`);
    return REFUSED;
  }
}

/** The stored bytes (canary) and their decryption: only when the page has the file password's authKey. */
async function checkContent(
  ctx: TestingContext,
  key: CryptoKey,
  file: FileDto,
  marker: string,
  text: string,
): Promise<ContentCheck> {
  if (!ctx.fileAuthKey) {
    ctx.log('content download not checked: downloads ask for your password');
    return 'not-asked';
  }
  const authKey = await ctx.fileAuthKey();
  throwIfAborted(ctx.signal);
  if (!authKey) {
    ctx.log('content download skipped: no password was given');
    return 'skipped';
  }
  const url = await downloadUrl(ctx, file.id, authKey);
  if (url === REFUSED) return 'refused';
  const res = await ctx.fetch(storageUrl(ctx, url), {
    credentials: 'omit',
    cache: 'no-store',
    signal: ctx.signal,
  });
  if (!res.ok) throw new StepFailed(`The storage answered ${res.status} for the stored bytes`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (containsBytes(bytes, marker))
    throw new StepFailed('Zero-knowledge canary: the stored bytes contain the plaintext marker');
  const params = {
    fileId: file.id,
    wrappedKey: file.wrappedKey,
    iv: file.iv,
    chunkSize: file.chunkSize,
    size: file.size,
  };
  const plain = await step('Decrypting the stored bytes', async () => {
    const out = await ctx.filesDownloadCrypto.decrypt(key, params, new Blob([bytes]).stream());
    const decoded = await new Response(out.plaintext).text();
    await out.verified;
    return decoded;
  });
  if (plain !== text) throw new StepFailed('The decrypted content differs from what was sealed');
  ctx.log('stored bytes hold none of the plaintext and decrypt back to it');
  return 'checked';
}

/**
 * A temporary file sealed by the files Worker, stored through the real storage, read back
 * (record, and the stored bytes when the page has the password), decrypted, deleted for good and
 * checked gone.
 */
export async function fileRoundTrip(ctx: TestingContext): Promise<CheckOutcome> {
  const { signal } = ctx;
  return withTemporaryItem(ctx, 'files', async (key, made) => {
    const before = await getParsed(ctx, '/files/counts', fileCountsResponseSchema);
    const marker = canary();
    const text = `Testing dashboard file ${marker}\n`.repeat(8);
    const input: UploadInput = {
      file: new Blob([text], { type: 'text/plain' }),
      name: `vault-test-${marker}.txt`,
      mimeType: 'text/plain',
      tags: [marker],
      thumbnail: false,
      fingerprint: false,
    };
    const fields = await step('Sealing the file’s name and key', () =>
      ctx.filesCrypto.sealUploadMeta(key, input),
    );
    throwIfAborted(signal);
    made.id = fields.fileId;
    const fileId = fields.fileId;
    const file = await store(ctx, key, input, fileId, fields);
    const meta = await getParsed(ctx, `/files/${fileId}/metadata`, fileEncryptionMetadataSchema);
    if (JSON.stringify({ file, meta }).includes(marker)) {
      throw new StepFailed('Zero-knowledge canary: the stored file record contains the plaintext marker');
    }
    const [outcome] = await step('Decrypting the file’s name', () =>
      ctx.filesCrypto.decryptMetadata(key, [file]),
    );
    throwIfAborted(signal);
    if (!outcome?.ok || outcome.meta.name !== input.name || outcome.meta.tags.join() !== marker) {
      throw new StepFailed('The stored name or tags do not decrypt back to what was sealed');
    }
    const content = await checkContent(ctx, key, file, marker, text);
    await step('DELETE /api/files/{id}', () => ctx.api.delete(`/files/${fileId}`, { signal }));
    await step('DELETE /api/files/{id}/permanent', () =>
      ctx.api.delete(`/files/${fileId}/permanent`, { signal }),
    );
    await expectGone('GET /api/files/{id}/metadata', () =>
      ctx.api.get(`/files/${fileId}/metadata`, { signal }),
    );
    made.gone = true;
    const after = await getParsed(ctx, '/files/counts', fileCountsResponseSchema);
    if (after.active !== before.active || after.deleted !== before.deleted || after.bytes !== before.bytes) {
      throw new StepFailed(
        `Counts did not come back: active ${before.active} → ${after.active}, trash ${before.deleted} → ${after.deleted}`,
      );
    }
    const done = 'uploaded, read back, decrypted and deleted for good';
    if (content === 'checked') return passed(`${done}; stored bytes checked and decrypted; nothing left`);
    if (content === 'not-asked') {
      return passed(`${done}; record checked (the stored bytes need your password); nothing left`);
    }
    const why = content === 'skipped' ? 'no password was given' : 'the password was not accepted';
    return warning(`${done}; nothing left; the download part was skipped: ${why}`);
  });
}
