import type { ClientProxy } from '@nestjs/microservices';
import type { RpcRequest } from '@vault/contracts';
import { firstValueFrom, timeout } from 'rxjs';
import { vaultErrorFromRpc } from '../errors/http-error';

/** Sends one request and awaits its single answer; errors come back as VaultError. */
export async function rpcCall<TRes, TBody = undefined>(
  client: ClientProxy,
  pattern: string,
  request: RpcRequest<TBody>,
  timeoutMs = 10_000,
): Promise<TRes> {
  try {
    return await firstValueFrom(
      client.send<TRes, RpcRequest<TBody>>(pattern, request).pipe(timeout(timeoutMs)),
    );
  } catch (error) {
    throw vaultErrorFromRpc(error);
  }
}
