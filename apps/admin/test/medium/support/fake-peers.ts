import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcContext } from '@vault/contracts';
import { startRpcService } from '@vault/server-kit';
import { freePort } from '@vault/server-kit/testing';

/** What a peer received: the pattern, the caller's context and the body. */
export interface PeerCall {
  pattern: string;
  ctx: RpcContext;
  body: unknown;
}

export type PeerAnswer = (body: unknown, ctx: RpcContext) => unknown;

/**
 * A small in-test RPC server standing in for auth, notes or files: it answers the patterns it is
 * given over the real transport (TCP, Nest's RPC exception filter: a thrown VaultError travels
 * as it would from the real service), and records every call. The admin service's medium tests
 * run against these, so each answer is chosen by the test (errors, pages, slowness) and what the
 * admin service forwarded (its ctx.admin, the bodies) can be read back.
 */
export interface FakePeer {
  port: number;
  calls: PeerCall[];
  /** Sets (or replaces) the answer of a pattern. */
  answer(pattern: string, answer: PeerAnswer): void;
  close(): Promise<void>;
}

/** Every pattern the admin service may send to one peer (a pattern without an answer fails as unknown). */
export async function startFakePeer(
  service: 'auth' | 'notes' | 'files',
  patterns: string[],
): Promise<FakePeer> {
  const answers = new Map<string, PeerAnswer>();
  const calls: PeerCall[] = [];

  @Controller()
  class FakeHandler {}
  for (const pattern of patterns) {
    const method = async (payload: { ctx: RpcContext; body: unknown }) => {
      calls.push({ pattern, ctx: payload.ctx, body: payload.body });
      const answer = answers.get(pattern);
      if (!answer) throw new Error(`no answer for ${pattern}`);
      return (await answer(payload.body, payload.ctx)) ?? null;
    };
    const key = `handle_${pattern.replace(/\W/g, '_')}`;
    Object.defineProperty(FakeHandler.prototype, key, { value: method, writable: true });
    const descriptor = Object.getOwnPropertyDescriptor(FakeHandler.prototype, key)!;
    Payload()(FakeHandler.prototype, key, 0);
    MessagePattern(pattern)(FakeHandler.prototype, key, descriptor);
  }

  @Module({ controllers: [FakeHandler] })
  class FakeModule {}

  const port = await freePort();
  const app: INestMicroservice = await startRpcService(
    { module: FakeModule },
    service,
    { transport: 'tcp', natsUrl: '', host: '127.0.0.1', port },
    false,
  );
  return {
    port,
    calls,
    answer: (pattern, answer) => void answers.set(pattern, answer),
    close: () => app.close(),
  };
}
