import type { TestingContext } from '../model/context';
import type { CheckOutcome } from '../model/suite';
import { failed, passed } from './check-helpers';

/** Whether the page is served over HTTPS, or from this machine (development, where HTTP is fine). */
export function transportOf(pageUrl: string): 'https' | 'local-http' | 'http' {
  const url = new URL(pageUrl);
  if (url.protocol === 'https:') return 'https';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host.startsWith('127.')
    ? 'local-http'
    : 'http';
}

/** What is missing from one answer's security headers. */
export function headerProblems(headers: Headers, https: boolean, api: boolean): string[] {
  const problems: string[] = [];
  const csp = headers.get('content-security-policy');
  if (!csp) problems.push('no Content-Security-Policy');
  else if (!/(^|;)\s*frame-ancestors\s/i.test(csp)) problems.push('the CSP has no frame-ancestors');
  if ((headers.get('x-content-type-options') ?? '').toLowerCase() !== 'nosniff') {
    problems.push('no X-Content-Type-Options: nosniff');
  }
  if (https && !/max-age=\d+/i.test(headers.get('strict-transport-security') ?? '')) {
    problems.push('no Strict-Transport-Security over HTTPS');
  }
  if (api && !/no-store/i.test(headers.get('cache-control') ?? ''))
    problems.push('no Cache-Control: no-store');
  return problems;
}

/** Fetches `url` (no credentials) and checks its headers. */
export async function checkHeaders(ctx: TestingContext, url: string, api: boolean): Promise<CheckOutcome> {
  const res = await ctx.fetch(url, { cache: 'no-store', credentials: 'omit', signal: ctx.signal });
  await res.body?.cancel().catch(() => undefined);
  const https = transportOf(ctx.pageUrl) === 'https';
  const problems = headerProblems(res.headers, https, api);
  ctx.log(`${url}: ${res.status}, ${problems.length === 0 ? 'headers ok' : problems.join(', ')}`);
  if (problems.length > 0) return failed(`${url}: ${problems.join('; ')}`);
  const hsts = https ? ', HSTS' : '';
  return passed(`CSP with frame-ancestors, nosniff${hsts}${api ? ', no-store' : ''}`);
}
