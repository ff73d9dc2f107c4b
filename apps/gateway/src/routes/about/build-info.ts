import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { serviceVersion } from '@vault/server-kit';
import type { GatewayConfig } from '../../config/gateway.config';
import type { AboutResponse } from './about.schema';

const COMMIT = /^[0-9a-f]{7,64}$/i;

/** The nearest `.git` directory above `from`, or null (images carry none). */
function findGitDir(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, '.git');
    if (existsSync(join(candidate, 'HEAD'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The commit HEAD points at in the checkout the gateway runs from: a detached HEAD, a loose ref or
 * a packed one. Null when there is no checkout or anything is unreadable.
 */
export function readGitCommit(from: string): string | null {
  try {
    const git = findGitDir(from);
    if (!git) return null;
    const head = readFileSync(join(git, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return COMMIT.test(head) ? head : null;
    const ref = head.slice('ref: '.length);
    const loose = join(git, ref);
    if (existsSync(loose)) {
      const id = readFileSync(loose, 'utf8').trim();
      return COMMIT.test(id) ? id : null;
    }
    const packed = join(git, 'packed-refs');
    if (!existsSync(packed)) return null;
    for (const line of readFileSync(packed, 'utf8').split('\n')) {
      const [id, name] = line.trim().split(' ');
      if (name === ref && id && COMMIT.test(id)) return id;
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * What GET /api/about answers, worked out once at boot: the commit the image build set (config
 * `build`), else the checkout's HEAD; builtAt only when the build set it.
 */
export function buildInfo(
  config: Pick<GatewayConfig, 'nodeEnv' | 'build'>,
  from: string = __dirname,
): AboutResponse {
  return {
    version: serviceVersion('gateway') ?? null,
    commit: config.build.commit ?? readGitCommit(from),
    builtAt: config.build.builtAt ?? null,
    environment: config.nodeEnv,
  };
}
