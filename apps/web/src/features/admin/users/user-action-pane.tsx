import type { AdminSessionRow, AdminUser } from '@vault/contracts';
import { useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/input';
import { describeUserAgent } from '../../../lib/user-agent';
import { LockFields, lockDefaults, lockReady } from './lock-fields';

export type UserAction =
  { kind: 'lock' | 'unlock' | 'remove-2fa' | 'end-sessions' } | { kind: 'revoke'; session: AdminSessionRow };

/** What the pane's form holds when confirmed. */
export interface ActionInput {
  reason: string;
  duration: string;
  confirm: string;
}

const TITLES: Record<UserAction['kind'], string> = {
  lock: 'Lock account',
  unlock: 'Unlock account',
  'remove-2fa': 'Remove two-step verification',
  'end-sessions': 'End all sessions',
  revoke: 'Revoke session',
};

/**
 * The confirmation step of an action in the user's details (in place of the details, so no dialog
 * opens over another): the question, the action's fields, Confirm and Cancel; focus starts on Cancel.
 */
export function UserActionPane({
  user,
  action,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  user: AdminUser;
  action: UserAction;
  busy: boolean;
  error: string | null;
  onConfirm: (input: ActionInput) => void;
  onCancel: () => void;
}) {
  const [lock, setLock] = useState(lockDefaults);
  const [reason, setReason] = useState('');
  const [confirm, setConfirm] = useState('');
  const needsName = action.kind === 'remove-2fa';
  const blocked =
    (needsName && (confirm !== user.username || !reason.trim())) ||
    (action.kind === 'lock' && !lockReady(lock));

  let question: string;
  switch (action.kind) {
    case 'lock':
      question = `${user.username} cannot sign in until the lock ends, and every session ends now.`;
      break;
    case 'unlock':
      question = `${user.username} can sign in again.`;
      break;
    case 'remove-2fa':
      question = `${user.username} signs in with the password alone until two-step verification is set up again.`;
      break;
    case 'end-sessions':
      question = `Every device of ${user.username} is signed out.`;
      break;
    case 'revoke':
      question = `${describeUserAgent(action.session.userAgent)} (${action.session.ipAddress || 'unknown IP'}) is signed out.`;
      break;
  }

  return (
    <form
      className="admin-stack"
      aria-label={TITLES[action.kind]}
      onSubmit={(e) => {
        e.preventDefault();
        if (!blocked) onConfirm({ ...lock, reason: action.kind === 'lock' ? lock.reason : reason, confirm });
      }}
    >
      <h3>{TITLES[action.kind]}</h3>
      <p>Are you sure? {question}</p>
      {action.kind === 'lock' ? <LockFields values={lock} onChange={setLock} /> : null}
      {needsName ? (
        <TextField
          label={`Type ${user.username} to confirm`}
          value={confirm}
          autoComplete="off"
          onChange={(e) => setConfirm(e.target.value)}
        />
      ) : null}
      {action.kind !== 'lock' && action.kind !== 'revoke' ? (
        <TextField
          label={needsName ? 'Reason' : 'Reason (optional)'}
          value={reason}
          maxLength={500}
          required={needsName}
          onChange={(e) => setReason(e.target.value)}
        />
      ) : null}
      {error ? (
        <Banner tone="danger" role="alert">
          {error}
        </Banner>
      ) : null}
      <div className="admin-actions">
        <Button variant="secondary" onClick={onCancel} disabled={busy} autoFocus>
          Cancel
        </Button>
        <Button
          type="submit"
          variant={action.kind === 'unlock' ? 'primary' : 'danger'}
          loading={busy}
          disabled={blocked}
        >
          {TITLES[action.kind]}
        </Button>
      </div>
    </form>
  );
}
