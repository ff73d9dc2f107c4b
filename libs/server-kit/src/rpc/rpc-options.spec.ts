import { rpcClientOptions, rpcServerOptions, type RpcTransportConfig } from './rpc-options';

const nats: RpcTransportConfig = { transport: 'nats', natsUrl: 'nats://nats:4222', host: '', port: 0 };

describe('NATS options', () => {
  // The library's default gives up after 10 tries (~20 s): a listener would then never receive
  // again and a caller would fail for good (the chaos tier's NATS case shows it).
  it('reconnect for ever, on both ends', () => {
    expect(rpcServerOptions('notes', nats)).toMatchObject({
      options: {
        servers: ['nats://nats:4222'],
        queue: 'vault-notes',
        reconnect: true,
        maxReconnectAttempts: -1,
      },
    });
    expect(rpcClientOptions('notes', nats)).toMatchObject({
      options: { servers: ['nats://nats:4222'], reconnect: true, maxReconnectAttempts: -1 },
    });
  });
});
