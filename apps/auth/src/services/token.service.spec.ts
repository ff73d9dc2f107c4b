import { generateKeyPairSync } from 'node:crypto';
import { jwtKeyId } from '@vault/server-kit';
import { decodeProtectedHeader, importSPKI } from 'jose';
import { TokenService } from './token.service';

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

describe(TokenService.name, () => {
  it('names its signing key in every token (kid: the public key thumbprint the gateway looks up)', async () => {
    const keys = pair();
    const tokens = await TokenService.create({ ...keys, accessTtlSeconds: 900 });
    const token = await tokens.sign({ userId: 'u', sessionId: 's', role: 'user' });
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'JWT' });
    expect(header.kid).toBe(await jwtKeyId(await importSPKI(keys.publicKeyPem, 'EdDSA')));
    await expect(tokens.verify(token)).resolves.toMatchObject({ sub: 'u', sid: 's', role: 'user' });
  });

  it('gives a rotated key another kid, and refuses to start with a public key of another pair', async () => {
    const [a, b] = [pair(), pair()];
    const kidOf = async (keys: typeof a) =>
      decodeProtectedHeader(
        await (
          await TokenService.create({ ...keys, accessTtlSeconds: 900 })
        ).sign({
          userId: 'u',
          sessionId: 's',
          role: 'user',
        }),
      ).kid;
    expect(await kidOf(a)).not.toBe(await kidOf(b));
    await expect(
      TokenService.create({
        privateKeyPem: a.privateKeyPem,
        publicKeyPem: b.publicKeyPem,
        accessTtlSeconds: 900,
      }),
    ).rejects.toThrow('JWT_PUBLIC_KEY does not match JWT_PRIVATE_KEY');
  });
});
