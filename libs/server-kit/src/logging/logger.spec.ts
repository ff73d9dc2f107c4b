import pino from 'pino';
import { Writable } from 'node:stream';
import { PinoNestLogger } from './logger';

function capture(level: string): { nest: PinoNestLogger; lines: () => { level: number; msg: string }[] } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const nest = new PinoNestLogger(pino({ level }, sink));
  return {
    nest,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
}

describe(PinoNestLogger.name, () => {
  it("keeps Nest's start-up chatter out of info logs and the services' own lines in", () => {
    const { nest, lines } = capture('info');
    nest.log('Mapped {/api/auth/login, POST} route', 'RouterExplorer');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Auth service listening on TCP 127.0.0.1:4001', 'AuthBootstrap');
    nest.warn('slow start', 'RouterExplorer');
    expect(lines().map((l) => l.msg)).toEqual(['Auth service listening on TCP 127.0.0.1:4001', 'slow start']);
  });

  it('shows the chatter at debug level', () => {
    const { nest, lines } = capture('debug');
    nest.log('Mapped {/api/auth/login, POST} route', 'RouterExplorer');
    expect(lines()).toEqual([
      expect.objectContaining({ level: 20, msg: 'Mapped {/api/auth/login, POST} route' }),
    ]);
  });
});
