// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadHttpError, xhrPut } from './xhr-put';

/** An XMLHttpRequest that answers every send with `status`, a content type and a body. */
function answering(status: number, contentType: string, body: string) {
  return class {
    status = 0;
    responseText = '';
    withCredentials = true;
    upload = { addEventListener: () => undefined };
    private listeners = new Map<string, () => void>();
    open() {}
    setRequestHeader() {}
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'content-type' ? contentType : null;
    }
    addEventListener(type: string, listener: () => void) {
      this.listeners.set(type, listener);
    }
    send() {
      this.status = status;
      this.responseText = body;
      setTimeout(() => this.listeners.get('load')?.(), 0);
    }
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('xhrPut', () => {
  it("a refused upload carries the files service's own message (the blob route's JSON errors)", async () => {
    const text = 'The file storage is not available right now. Nothing was stored; please try again.';
    vi.stubGlobal(
      'XMLHttpRequest',
      answering(503, 'application/json', JSON.stringify({ error: text, code: 'STORAGE_UNAVAILABLE' })),
    );
    const refused = xhrPut('https://vault.test/api/files/blob/x', new Blob(['x']));
    await expect(refused).rejects.toBeInstanceOf(UploadHttpError);
    await expect(refused).rejects.toMatchObject({ status: 503, message: text, code: 'UPLOAD_HTTP' });
  });

  it("S3's XML errors (and bodies that are not JSON errors) keep the status text", async () => {
    vi.stubGlobal(
      'XMLHttpRequest',
      answering(403, 'application/xml', '<Error><Code>AccessDenied</Code></Error>'),
    );
    await expect(xhrPut('https://s3.test/b/k', new Blob(['x']))).rejects.toMatchObject({
      message: 'Upload failed with status 403',
    });
    vi.stubGlobal('XMLHttpRequest', answering(500, 'application/json', '{"nope":1}'));
    await expect(xhrPut('https://s3.test/b/k', new Blob(['x']))).rejects.toMatchObject({
      message: 'Upload failed with status 500',
    });
  });
});
