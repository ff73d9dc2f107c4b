import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from '../../config/gateway.config';
import { aboutResponseSchema } from './about.schema';
import { buildInfo, readGitCommit } from './build-info';

const SHA = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);
const BASE = {
  JWT_PUBLIC_KEY: generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString(),
};
const NO_BUILD = { nodeEnv: 'test' as const, build: {} };

describe('buildInfo (GET /api/about)', () => {
  let root: string;
  let nested: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'about-'));
    nested = join(root, 'apps', 'gateway', 'dist');
    mkdirSync(nested, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const git = (head: string, files: Record<string, string> = {}) => {
    mkdirSync(join(root, '.git', 'refs', 'heads'), { recursive: true });
    writeFileSync(join(root, '.git', 'HEAD'), `${head}\n`);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, '.git', name), text);
  };

  it('answers the package version, the commit from GIT_COMMIT and NODE_ENV, and parses with its schema', () => {
    git(OTHER);
    const info = buildInfo(loadGatewayConfig({ ...BASE, GIT_COMMIT: SHA, NODE_ENV: 'production' }), nested);
    expect(aboutResponseSchema.parse(info)).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      commit: SHA,
      builtAt: null,
      environment: 'production',
    });
  });

  it('takes VAULT_COMMIT and VAULT_BUILT_AT when set', () => {
    const config = loadGatewayConfig({ ...BASE, VAULT_COMMIT: SHA, VAULT_BUILT_AT: '2026-11-26T10:00:00Z' });
    const info = buildInfo(config, nested);
    expect(info).toMatchObject({ commit: SHA, builtAt: '2026-11-26T10:00:00Z', environment: 'development' });
  });

  it('reads the checkout: a loose ref, a packed ref, a detached HEAD', () => {
    git('ref: refs/heads/main', { 'refs/heads/main': `${SHA}\n` });
    expect(buildInfo(NO_BUILD, nested).commit).toBe(SHA);
    rmSync(join(root, '.git', 'refs', 'heads', 'main'));
    writeFileSync(join(root, '.git', 'packed-refs'), `# pack-refs\n${OTHER} refs/heads/main\n`);
    expect(readGitCommit(nested)).toBe(OTHER);
    writeFileSync(join(root, '.git', 'HEAD'), `${SHA}\n`);
    expect(readGitCommit(nested)).toBe(SHA);
  });

  it('answers null without a checkout or with an unreadable one, never a secret or garbage', () => {
    expect(readGitCommit(nested)).toBeNull();
    git('ref: refs/heads/gone');
    expect(readGitCommit(nested)).toBeNull();
    writeFileSync(join(root, '.git', 'HEAD'), 'not a commit\n');
    expect(readGitCommit(nested)).toBeNull();
    expect(buildInfo(NO_BUILD, nested)).toMatchObject({ commit: null, builtAt: null });
  });
});
