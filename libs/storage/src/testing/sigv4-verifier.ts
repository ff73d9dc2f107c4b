import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An independent AWS Signature Version 4 check for the S3 test server. s3rver checks the
 * expiry of presigned URLs but not their signatures, so on its own it cannot catch a
 * signing bug, a URL reused for another key, or a tampered signature; this check can
 * (docs/operations.md "Toolchain on the test machines", S3). It covers presigned query signatures and
 * Authorization-header signatures, with the payload hash taken as declared.
 */
export interface SigV4Request {
  method: string;
  /** Path and query exactly as sent (`req.url`). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export type SigV4Result = { ok: true; accessKey: string } | { ok: false; reason: string };

/** AWS's URI encoding: everything but A-Z a-z 0-9 - _ . ~ is percent-encoded. */
function awsEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function header(headers: SigV4Request['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
}

function queryPairs(rawQuery: string): [string, string][] {
  if (!rawQuery) return [];
  return rawQuery.split('&').map((part) => {
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    return [decodeURIComponent(rawKey), decodeURIComponent(rawValue)];
  });
}

/** Verifies a SigV4-signed request; requests that carry no SigV4 signature are reported as such. */
export function verifySigV4(
  request: SigV4Request,
  credentials: (accessKey: string) => string | undefined,
): SigV4Result {
  const questionMark = request.url.indexOf('?');
  const path = questionMark === -1 ? request.url : request.url.slice(0, questionMark);
  const rawQuery = questionMark === -1 ? '' : request.url.slice(questionMark + 1);
  let pairs: [string, string][];
  try {
    pairs = queryPairs(rawQuery);
  } catch {
    return { ok: false, reason: 'malformed query string' };
  }
  const query = new Map(pairs);

  let credential: string | undefined;
  let signedHeaders: string | undefined;
  let signature: string | undefined;
  let amzDate: string | undefined;
  let payloadHash: string;
  let canonicalPairs: [string, string][];

  if (query.has('X-Amz-Signature')) {
    if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256')
      return { ok: false, reason: 'unsupported algorithm' };
    credential = query.get('X-Amz-Credential');
    signedHeaders = query.get('X-Amz-SignedHeaders');
    signature = query.get('X-Amz-Signature');
    amzDate = query.get('X-Amz-Date');
    payloadHash = query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    canonicalPairs = pairs.filter(([key]) => key !== 'X-Amz-Signature');
  } else {
    const authorization = header(request.headers, 'authorization');
    if (!authorization?.startsWith('AWS4-HMAC-SHA256 ')) return { ok: false, reason: 'not SigV4-signed' };
    const fields = new Map(
      authorization
        .slice('AWS4-HMAC-SHA256 '.length)
        .split(',')
        .map((field) => {
          const [name, ...rest] = field.trim().split('=');
          return [name ?? '', rest.join('=')] as const;
        }),
    );
    credential = fields.get('Credential');
    signedHeaders = fields.get('SignedHeaders');
    signature = fields.get('Signature');
    amzDate = header(request.headers, 'x-amz-date');
    payloadHash = header(request.headers, 'x-amz-content-sha256') ?? 'UNSIGNED-PAYLOAD';
    canonicalPairs = pairs;
  }
  if (!credential || !signedHeaders || !signature || !amzDate) {
    return { ok: false, reason: 'incomplete signature' };
  }
  const [accessKey, date, region, service, terminator] = credential.split('/');
  if (!accessKey || !date || !region || !service || terminator !== 'aws4_request') {
    return { ok: false, reason: 'malformed credential scope' };
  }
  const secretKey = credentials(accessKey);
  if (secretKey === undefined) return { ok: false, reason: 'unknown access key' };
  if (!amzDate.startsWith(date))
    return { ok: false, reason: 'credential date differs from the request date' };

  const headerNames = signedHeaders.split(';');
  if (!headerNames.includes('host')) return { ok: false, reason: 'host is not signed' };
  const canonicalHeaders = headerNames
    .map((name) => `${name}:${(header(request.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonicalQuery = canonicalPairs
    .map(([key, value]) => [awsEncode(key), awsEncode(value)] as const)
    .sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalRequest = [
    request.method.toUpperCase(),
    path,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, date), region), service), 'aws4_request');
  const expected = hmac(signingKey, stringToSign);
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'signature does not match' };
  }
  return { ok: true, accessKey };
}
