/** HAZARDOUS: raw Argon2id (RFC 9106) via hash-wasm (WASM: same code in browsers, Workers and Node). */
import { argon2id as wasmArgon2id } from 'hash-wasm';

export async function argon2id(
  password: Uint8Array,
  salt: Uint8Array,
  p: { memoryKiB: number; iterations: number; parallelism: number },
  lengthBytes: number,
): Promise<Uint8Array> {
  return wasmArgon2id({
    password,
    salt,
    parallelism: p.parallelism,
    iterations: p.iterations,
    memorySize: p.memoryKiB,
    hashLength: lengthBytes,
    outputType: 'binary',
  });
}
