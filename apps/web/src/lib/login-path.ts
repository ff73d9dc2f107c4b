/**
 * Spec section 2: "After an authentication failure the user is sent to a login path. If the
 * current path has a first segment, the path is /{segment}/login, otherwise /login."
 *
 * Applied to the areas that have their own sign-in page (/admin → /admin/login). Every other area
 * signs in at /login: /vault/login or /settings/login do not exist and would only bounce through
 * the unknown-path redirect back to /login.
 */
const AREAS_WITH_OWN_LOGIN = new Set(['admin']);

export function loginPathFor(pathname: string): string {
  const segment = pathname.split('/').filter(Boolean)[0];
  return segment && AREAS_WITH_OWN_LOGIN.has(segment) ? `/${segment}/login` : '/login';
}
