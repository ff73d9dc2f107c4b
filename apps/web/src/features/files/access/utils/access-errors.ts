import { DEFAULT_LOCKOUT_SECONDS } from '../../../../lib/lockout';
import { ApiError } from '../../../../lib/api-error';
import { ACCESS_MESSAGES } from './access-messages';
import { FileAccessError } from './fetch-decrypted';

function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const minutes = Math.ceil(s / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A 423 answer: the server's message and when to try again ('... Try again in 10 minutes.'). */
export function lockoutMessage(error: ApiError): string {
  const text = error.message.trim();
  const sentence = /[.!?]$/.test(text) ? text : `${text}.`;
  return `${sentence} Try again in ${waitText(error.retryAfter ?? DEFAULT_LOCKOUT_SECONDS)}.`;
}

function serverText(error: ApiError): string | undefined {
  const text = error.body?.['error'];
  return typeof text === 'string' && text ? text : undefined;
}

/**
 * What the password prompt shows when download-url / preview failed: 'Invalid password' for a
 * wrong password (401), the lockout with its retry time (423), the server's own message (e.g.
 * 'File is infected and cannot be downloaded'), else the spec's defaults.
 */
export function promptErrorFor(error: unknown, mode: 'download' | 'preview'): string {
  if (error instanceof ApiError) {
    if (error.status === 401 && (error.code === 'INVALID_PASSWORD' || error.code === 'INVALID_CREDENTIALS')) {
      return ACCESS_MESSAGES.invalidPassword;
    }
    if (error.status === 423) return lockoutMessage(error);
    if (error.status === 0)
      return mode === 'download' ? ACCESS_MESSAGES.downloadFailed : ACCESS_MESSAGES.previewFailed;
    const text = serverText(error);
    if (text) return text;
    if (error.status === 401) return ACCESS_MESSAGES.authFailed;
    return mode === 'download'
      ? ACCESS_MESSAGES.downloadFailedStatus(error.status)
      : ACCESS_MESSAGES.previewFailed;
  }
  // KDF parameters refused, the crypto worker failing: their own words.
  if (error instanceof Error && error.message) return error.message;
  return ACCESS_MESSAGES.authFailed;
}

/** The preview modal's error panel text (spec: default 'Failed to load preview'; 'Failed to decrypt: {reason}'). */
export function previewErrorFor(error: unknown): string {
  if (error instanceof FileAccessError) {
    switch (error.kind) {
      case 'integrity':
      case 'key':
        return ACCESS_MESSAGES.previewDecryptFailed(error.message);
      case 'http':
      case 'other':
        return error.message;
      default:
        return ACCESS_MESSAGES.previewFailed;
    }
  }
  return ACCESS_MESSAGES.previewFailed;
}
