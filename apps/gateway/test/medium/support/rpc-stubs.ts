import { Controller, type INestMicroservice, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { VaultError, type RpcRequest } from '@vault/contracts';
import { RpcDomainExceptionFilter, rpcServerOptions } from '@vault/server-kit';

export interface Seen {
  pattern: string;
  request: RpcRequest<Record<string, unknown> | undefined>;
}

class StubModule {}

/**
 * Stub microservices on real TCP ports, steered by the test: each served pattern answers what was
 * queued for it (a value, or a VaultError to throw; null when nothing is), every call lands in
 * `seen`, and `<service>.health` answers the given health reply.
 */
export class RpcStubs {
  readonly seen: Seen[] = [];
  private readonly answers = new Map<string, unknown[]>();
  private readonly apps: INestMicroservice[] = [];

  /** Queues the next answers of a pattern. */
  readonly answer = (pattern: string, ...values: unknown[]): void => {
    this.answers.set(pattern, values);
  };

  reset(): void {
    this.answers.clear();
    this.seen.length = 0;
  }

  async serve(service: string, port: number, health: unknown, patterns: string[]): Promise<void> {
    const app = await NestFactory.createMicroservice(
      { module: StubModule, controllers: [this.handler(`${service}.health`, health, patterns)] },
      {
        ...rpcServerOptions(service, { transport: 'tcp', natsUrl: '', host: '127.0.0.1', port }),
        logger: false,
      },
    );
    app.useGlobalFilters(new RpcDomainExceptionFilter());
    await app.listen();
    this.apps.push(app);
  }

  async close(): Promise<void> {
    await Promise.all(this.apps.map((app) => app.close()));
  }

  private reply(pattern: string, payload: unknown): unknown {
    this.seen.push({ pattern, request: payload as Seen['request'] });
    const next = this.answers.get(pattern)?.shift();
    if (next instanceof VaultError) throw next;
    return next ?? null;
  }

  /** A controller with one @MessagePattern handler per pattern (Nest hands it the payload first). */
  private handler(healthPattern: string, health: unknown, patterns: string[]): Type {
    @Controller()
    class StubHandler {}
    const define = (pattern: string, handle: (payload: unknown) => unknown) => {
      Object.defineProperty(StubHandler.prototype, pattern, { value: handle });
      const descriptor = Object.getOwnPropertyDescriptor(StubHandler.prototype, pattern);
      MessagePattern(pattern)(StubHandler.prototype, pattern, descriptor as PropertyDescriptor);
    };
    define(healthPattern, () => health);
    for (const pattern of patterns) define(pattern, (payload) => this.reply(pattern, payload));
    return StubHandler;
  }
}
