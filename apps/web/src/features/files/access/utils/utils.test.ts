import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../lib/api-error';
import { lockoutMessage, previewErrorFor, promptErrorFor } from './access-errors';
import { decodeTextPreview } from './build-preview';
import { FileAccessError, resolveStorageUrl } from './fetch-decrypted';
import { formatFileSize } from '../../utils/file-format';
import { hasPdfHeader } from './pdf/pdf-header';
import { objectUrlTypeFor, previewKindOf } from './preview-kind';
import { safeFileName } from './save-file';

describe('formatFileSize (base 1024: Bytes, KB, MB, GB)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024, '1 MB'],
    [100 * 1024 * 1024, '100 MB'],
    [5.25 * 1024 ** 3, '5.25 GB'],
    [3 * 1024 ** 4, '3072 GB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('previewKindOf', () => {
  it.each([
    ['text/plain', 'a.txt', 'text'],
    ['text/markdown', 'README.md', 'text'],
    ['text/csv', 'a.csv', 'text'],
    ['text/plain', 'main.py', 'code'],
    ['application/json', 'a.json', 'code'],
    ['text/html', 'page.html', 'code'],
    ['application/ld+json', 'a.jsonld', 'code'],
    ['image/png', 'a.png', 'image'],
    ['image/svg+xml', 'a.svg', 'image'],
    ['application/pdf', 'a.pdf', 'pdf'],
    ['video/mp4', 'a.mp4', 'video'],
    ['audio/mpeg', 'a.mp3', 'audio'],
    ['application/msword', 'a.doc', 'document'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx', 'document'],
    ['application/vnd.ms-excel', 'a.xls', 'document'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'a.xlsx', 'document'],
    ['application/zip', 'a.zip', 'document'],
    ['application/x-zip-compressed', 'a.zip', 'document'],
    ['model/gltf-binary', 'a.glb', 'unsupported'],
    // Nothing useful in the type: the extension decides.
    ['application/octet-stream', 'scan.PDF', 'pdf'],
    ['application/octet-stream', 'photo.jpeg', 'image'],
    ['', 'notes.txt', 'text'],
    ['', 'app.ts', 'code'],
    ['application/octet-stream', 'report.xlsx', 'document'],
    ['application/octet-stream', 'blob', 'unsupported'],
    ['TEXT/PLAIN; charset=utf-8', 'a', 'text'],
  ])('%s "%s" → %s', (mime, name, kind) => {
    expect(previewKindOf(mime, name)).toBe(kind);
  });

  it('never gives an object URL a type a browser would run as a page', () => {
    expect(objectUrlTypeFor('image', 'image/png')).toBe('image/png');
    expect(objectUrlTypeFor('image', 'text/html')).toBe('image/png');
    expect(objectUrlTypeFor('pdf', 'text/html')).toBe('application/pdf');
    expect(objectUrlTypeFor('video', 'video/webm; codecs=vp9')).toBe('video/webm');
    expect(objectUrlTypeFor('audio', 'audio/<script>')).toBe('audio/mpeg');
    expect(objectUrlTypeFor('code', 'text/html')).toBe('application/octet-stream');
  });
});

describe('decodeTextPreview', () => {
  it('holds back a character cut at the limit instead of showing a broken one', () => {
    const bytes = new TextEncoder().encode('ab€cd'); // € is 3 bytes
    const { text, truncated } = decodeTextPreview(bytes, 3);
    expect(text).toBe('ab');
    expect(truncated).toEqual({ shownBytes: 3, totalBytes: bytes.length });
    expect(decodeTextPreview(bytes, 100)).toEqual({ text: 'ab€cd', truncated: undefined });
  });
});

describe('hasPdfHeader', () => {
  it('wants "%PDF-" at the very start', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(hasPdfHeader(enc('%PDF-1.7'))).toBe(true);
    expect(hasPdfHeader(enc(' %PDF-1.7'))).toBe(false);
    expect(hasPdfHeader(enc('%PDF'))).toBe(false);
    expect(hasPdfHeader(new Uint8Array(0))).toBe(false);
  });
});

describe('resolveStorageUrl', () => {
  const page = 'https://vault.example.org/files';
  it('resolves a relative signed URL against the API origin', () => {
    expect(resolveStorageUrl('/api/files/blob/abc?sig=1', '/api', page).href).toBe(
      'https://vault.example.org/api/files/blob/abc?sig=1',
    );
    expect(resolveStorageUrl('/api/files/blob/abc', 'https://api.example.org/api', page).href).toBe(
      'https://api.example.org/api/files/blob/abc',
    );
  });

  it('keeps an absolute (presigned) URL as it is', () => {
    const s3 = 'https://bucket.s3.eu-west-1.amazonaws.com/k?X-Amz-Signature=f';
    expect(resolveStorageUrl(s3, '/api', page).href).toBe(s3);
  });

  it('refuses anything but http(s)', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'file:///etc/passwd',
      'blob:https://x/1',
    ]) {
      expect(() => resolveStorageUrl(bad, '/api', page)).toThrow(FileAccessError);
    }
  });
});

describe('safeFileName', () => {
  it('removes path separators and reserved or control characters', () => {
    expect(safeFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeFileName('a<b>:c"d|e?f*g\u0007.txt')).toBe('a_b__c_d_e_f_g_.txt');
    expect(safeFileName('report.pdf')).toBe('report.pdf');
    expect(safeFileName('...')).toBe('download');
    expect(safeFileName('x'.repeat(300))).toHaveLength(255);
  });
});

describe('file access errors', () => {
  it("words a 401 INVALID_PASSWORD as 'Invalid password'", () => {
    const e = new ApiError(401, 'Invalid password', {
      code: 'INVALID_PASSWORD',
      body: { error: 'Invalid password' },
    });
    expect(promptErrorFor(e, 'download')).toBe('Invalid password');
    expect(promptErrorFor(e, 'preview')).toBe('Invalid password');
  });

  it('gives the lockout its retry time', () => {
    const e = (retryAfter?: number) =>
      new ApiError(423, 'Account Temporarily Locked', retryAfter === undefined ? {} : { retryAfter });
    expect(lockoutMessage(e(600))).toBe('Account Temporarily Locked. Try again in 10 minutes.');
    expect(lockoutMessage(e(61))).toBe('Account Temporarily Locked. Try again in 2 minutes.');
    expect(lockoutMessage(e(60))).toBe('Account Temporarily Locked. Try again in 1 minute.');
    expect(lockoutMessage(e(1))).toBe('Account Temporarily Locked. Try again in 1 second.');
    expect(lockoutMessage(e(45))).toBe('Account Temporarily Locked. Try again in 45 seconds.');
    expect(lockoutMessage(e())).toBe('Account Temporarily Locked. Try again in 10 minutes.');
  });

  it("passes the server's words through (e.g. an infected file), else the spec's defaults", () => {
    const infected = new ApiError(403, 'File is infected and cannot be downloaded', {
      code: 'FILE_INFECTED',
      body: { error: 'File is infected and cannot be downloaded' },
    });
    expect(promptErrorFor(infected, 'download')).toBe('File is infected and cannot be downloaded');
    expect(promptErrorFor(new ApiError(502, 'HTTP 502'), 'download')).toBe('Download failed with status 502');
    expect(promptErrorFor(new ApiError(502, 'HTTP 502'), 'preview')).toBe('Failed to load preview');
    expect(promptErrorFor(new ApiError(0, 'Network error'), 'download')).toBe('Download failed');
    expect(promptErrorFor(null, 'download')).toBe('Authentication failed');
  });

  it("words preview failures ('Failed to decrypt: {reason}', default 'Failed to load preview')", () => {
    expect(previewErrorFor(new FileAccessError('integrity', 'changed'))).toBe('Failed to decrypt: changed');
    expect(previewErrorFor(new FileAccessError('http', 'Failed to download encrypted content: 410'))).toBe(
      'Failed to download encrypted content: 410',
    );
    expect(previewErrorFor(new FileAccessError('network', 'Download failed'))).toBe('Failed to load preview');
    expect(previewErrorFor(new Error('?'))).toBe('Failed to load preview');
  });
});
