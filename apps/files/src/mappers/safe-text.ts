/**
 * One line of a failure text fit to show an admin: its first line, the given secrets masked,
 * long hex or base64url runs (a fingerprint, a sealed value or a token, were one ever quoted) and
 * URL queries (signatures) elided, `max` characters at most; `fallback` when nothing is left.
 */
export function safeLine(
  text: string | null | undefined,
  { max, fallback, secrets = [] }: { max: number; fallback: string; secrets?: readonly string[] },
): string {
  let line = (text ?? '').split('\n')[0]!.trim();
  for (const secret of secrets) line = line.split(secret).join('****');
  line = line
    .replace(/[A-Za-z0-9+_-]{40,}={0,2}/g, '…')
    .replace(/[0-9a-fA-F]{32,}/g, '…')
    .replace(/\?\S*/g, '?…');
  return (line || fallback).slice(0, max);
}
