#!/usr/bin/env node
// Makes the deployment's signing keys, server secret and storage signing secret (the files
// service's blob-URL HMAC key) in a folder (a Docker volume or a mounted secret) when they are absent. Never overwrites: rotating keys is deliberate.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '/keys';
mkdirSync(dir, { recursive: true });
const priv = join(dir, 'jwt-private.pem');
const pub = join(dir, 'jwt-public.pem');
const secret = join(dir, 'server-secret');
const storageSecret = join(dir, 'storage-signing-secret');

if (!existsSync(priv) || !existsSync(pub)) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  writeFileSync(priv, privateKey, { mode: 0o640 });
  writeFileSync(pub, publicKey, { mode: 0o644 });
  console.log(`keygen: made an Ed25519 signing key pair in ${dir}`);
}
if (!existsSync(secret)) {
  writeFileSync(secret, randomBytes(48).toString('base64url'), { mode: 0o640 });
  console.log(`keygen: made the server secret in ${dir}`);
}
if (!existsSync(storageSecret)) {
  writeFileSync(storageSecret, randomBytes(48).toString('base64url'), { mode: 0o640 });
  console.log(`keygen: made the storage signing secret in ${dir}`);
}
console.log('keygen: keys present');
