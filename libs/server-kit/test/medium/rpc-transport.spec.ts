import { Controller, Module, UseFilters } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxyFactory, MessagePattern, Payload, type ClientProxy } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import { createServer } from 'node:net';
import { ErrorCode, VaultError, type RpcRequest } from '@vault/contracts';
import { RpcDomainExceptionFilter } from '../../src/errors';
import { rpcCall, rpcClientOptions, rpcServerOptions, type RpcTransportConfig } from '../../src/rpc';
import { tcpPortFree } from './ports';

@Controller()
@UseFilters(new RpcDomainExceptionFilter())
class EchoHandler {
  @MessagePattern('kit.echo')
  echo(@Payload() req: RpcRequest<{ text: string }>) {
    return { text: req.body.text, requestId: req.ctx.requestId };
  }

  @MessagePattern('kit.locked')
  locked(): never {
    throw new VaultError(ErrorCode.ACCOUNT_LOCKED, undefined, { retryAfter: 77 });
  }

  @MessagePattern('kit.crash')
  crash(): never {
    throw new Error('database password is hunter2');
  }
}

@Module({ controllers: [EchoHandler] })
class EchoModule {}

const ctx = { requestId: 'req-42', ip: '127.0.0.1', userAgent: 'jest' };

async function startPair(
  cfg: RpcTransportConfig,
): Promise<{ server: INestMicroservice; client: ClientProxy }> {
  const server = await NestFactory.createMicroservice(EchoModule, {
    ...rpcServerOptions('kit', cfg),
    logger: false,
  });
  await server.listen();
  const client = ClientProxyFactory.create(rpcClientOptions('kit', cfg));
  await client.connect();
  return { server, client };
}

describe.each([
  ['tcp' as const, { natsUrl: '' }],
  ['nats' as const, { natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' }],
])('RPC over %s', (transport, extra) => {
  let server: INestMicroservice;
  let client: ClientProxy;

  beforeAll(async () => {
    const port = await tcpPortFree();
    ({ server, client } = await startPair({ transport, host: '127.0.0.1', port, ...extra }));
  });

  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('carries a request and its context to the handler and back', async () => {
    await expect(rpcCall(client, 'kit.echo', { ctx, body: { text: 'hi' } })).resolves.toEqual({
      text: 'hi',
      requestId: 'req-42',
    });
  });

  it('carries a domain error with its code and extra fields', async () => {
    const err = await rpcCall(client, 'kit.locked', { ctx, body: undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VaultError);
    expect(err).toMatchObject({ code: 'ACCOUNT_LOCKED', extra: { retryAfter: 77 } });
  });

  it('hides an unexpected error behind INTERNAL', async () => {
    const err = await rpcCall(client, 'kit.crash', { ctx, body: undefined }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INTERNAL', message: 'Internal server error' });
  });
});

describe('RPC to a peer that is not there', () => {
  it('answers SERVICE_UNAVAILABLE instead of hanging', async () => {
    const port = await tcpPortFree();
    const client = ClientProxyFactory.create(
      rpcClientOptions('kit', { transport: 'tcp', host: '127.0.0.1', port, natsUrl: '' }),
    );
    const err = await rpcCall(client, 'kit.echo', { ctx, body: { text: 'x' } }, 2000).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await client.close();
  });

  it('answers SERVICE_UNAVAILABLE when the peer accepts but never replies', async () => {
    const silent = createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const client = ClientProxyFactory.create(
      rpcClientOptions('kit', { transport: 'tcp', host: '127.0.0.1', port, natsUrl: '' }),
    );
    const err = await rpcCall(client, 'kit.echo', { ctx, body: { text: 'x' } }, 300).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await client.close();
    silent.close();
  });
});
