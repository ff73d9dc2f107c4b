import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticFileFor } from './static-file';

describe('staticFileFor', () => {
  const root = mkdtempSync(join(tmpdir(), 'spa-'));
  beforeAll(() => {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    writeFileSync(join(root, 'assets', 'app-abc12345.js'), '');
    writeFileSync(join(root, '.env'), 'SECRET=1');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds files under the root', () => {
    expect(staticFileFor(root, '/index.html')).toBe('index.html');
    expect(staticFileFor(root, '/assets/app-abc12345.js?v=1')).toBe('assets/app-abc12345.js');
  });

  it('says nothing for client routes, folders and missing files', () => {
    expect(staticFileFor(root, '/')).toBeUndefined();
    expect(staticFileFor(root, '/vault')).toBeUndefined();
    expect(staticFileFor(root, '/assets')).toBeUndefined();
    expect(staticFileFor(root, '/missing.js')).toBeUndefined();
  });

  it('refuses traversal, encoded traversal, dot-files and NUL bytes', () => {
    expect(staticFileFor(root, '/../../etc/passwd')).toBeUndefined();
    expect(staticFileFor(root, '/%2e%2e/%2e%2e/etc/passwd')).toBeUndefined();
    expect(staticFileFor(root, '/.env')).toBeUndefined();
    expect(staticFileFor(root, '/index.html%00.js')).toBeUndefined();
    expect(staticFileFor(root, '/%E0%A4%A')).toBeUndefined();
    expect(staticFileFor(root, '/..%5c..%5cetc')).toBeUndefined();
  });
});
