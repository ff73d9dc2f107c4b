// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ownSecurityEventText, securityEventLabel, SECURITY_EVENT_TYPES } from './security-event-text';

/** The types the auth service records, read from its entity (the page cannot import it). */
function recordedTypes(): string[] {
  const entity = readFileSync(
    new URL('../../../auth/src/entities/security-event.entity.ts', import.meta.url),
    'utf8',
  );
  const list = /SECURITY_EVENT_TYPES = \[([\s\S]*?)\] as const/.exec(entity)?.[1] ?? '';
  return [...list.matchAll(/^\s*'([a-z0-9_]+)',/gm)].map((m) => m[1]!);
}

describe('security event texts', () => {
  it('has a text for every type the auth service records, and no other', () => {
    const types = recordedTypes();
    expect(types.length).toBeGreaterThan(30);
    expect([...SECURITY_EVENT_TYPES].sort()).toEqual([...types].sort());
  });

  it("tells the user what an administrator did, with the administrator's reason", () => {
    expect(ownSecurityEventText('admin_account_locked', { reason: 'Suspicious sign-ins' })).toEqual({
      text: 'An administrator locked your account',
      note: 'Reason: Suspicious sign-ins',
    });
    expect(ownSecurityEventText('admin_account_unlocked').text).toBe(
      'An administrator unlocked your account',
    );
    expect(ownSecurityEventText('admin_two_factor_removed').text).toBe(
      'An administrator removed your two-step verification',
    );
    expect(ownSecurityEventText('admin_sessions_ended').text).toBe('An administrator ended your sessions');
    expect(ownSecurityEventText('admin_session_revoked').text).toBe('An administrator ended a session');
    expect(
      ownSecurityEventText('admin_role_changed', { from: 'user', to: 'admin', reason: 'Support' }),
    ).toEqual({
      text: 'An administrator changed your role',
      note: 'From user to admin · Reason: Support',
    });
  });

  it("keeps other events' internal reason codes out of the user's text", () => {
    expect(ownSecurityEventText('signin_failure', { reason: 'bad_password' })).toEqual({
      text: 'A sign-in to your account failed',
      note: null,
    });
  });

  it('reads an unknown type as words rather than failing', () => {
    expect(securityEventLabel('quantum_key_rotated')).toBe('Quantum key rotated');
    expect(ownSecurityEventText('quantum_key_rotated').text).toBe('Quantum key rotated');
    expect(securityEventLabel('admin_account_locked')).toBe('Locked by an administrator');
  });
});
