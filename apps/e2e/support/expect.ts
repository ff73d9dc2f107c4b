/** Assertions shared by the API end-to-end tests. */
import { REFRESH_COOKIE, type ErrorBody } from '@vault/contracts';
import type { ApiClient, ApiResponse } from './http';

/** What an answer tells apart: status, message and code (request ids always differ). */
export function errorShape(res: ApiResponse<unknown>): { status: number; error: unknown; code: unknown } {
  const body = (res.body ?? {}) as { error?: unknown; code?: unknown };
  return { status: res.status, error: body.error, code: body.code };
}

/** Status plus the error body `{error, code, ...}` of docs/api.md "Errors", compared in one go. */
export function expectError(
  res: ApiResponse<unknown>,
  status: number,
  error: string | RegExp,
  extra: Partial<ErrorBody> = {},
): void {
  const body = (res.body ?? {}) as Partial<ErrorBody>;
  expect({ status: res.status, body }).toEqual({
    status,
    body: expect.objectContaining({
      error: typeof error === 'string' ? error : expect.stringMatching(error),
      ...extra,
    }) as unknown,
  });
}

/** Status of `GET /api/auth/me` with this token (default: the client's own). */
export async function meStatus(client: ApiClient, token?: string): Promise<number> {
  const res = await client.get('/api/auth/me', token === undefined ? {} : { token });
  return res.status;
}

/** The refresh cookie line of an answer, checked for the attributes the contract demands. */
export function expectRefreshCookie(res: ApiResponse<unknown>): string {
  const cookie = res.cookie(REFRESH_COOKIE.name);
  expect(cookie).toBeDefined();
  expect(cookie?.value).toMatch(/^\S{16,}$/);
  expect(cookie?.attributes).toEqual(
    expect.objectContaining({
      httponly: true,
      samesite: expect.stringMatching(/^strict$/i),
      path: REFRESH_COOKIE.path,
    }),
  );
  return cookie?.value ?? '';
}

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
