import type { AdminUserDetails } from '@vault/contracts';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { RetryBanner } from '../../../components/retry-banner';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { useQueryCache } from '../../../lib/query';
import { useConfirmAction } from '../../../lib/use-confirm-action';
import { useAdminApi, useAdminQuery, useAdminSession } from '../api/admin-api';
import { actionFailureText } from '../components/admin-load-error';
import { revokeAdminSession } from '../sessions/sessions-api';
import { SuccessNote } from '../tables/admin-table';
import { RoleForm } from './role-form';
import { UserActionPane, type ActionInput, type UserAction } from './user-action-pane';
import { UserDetailsView } from './user-details-view';
import { endUserSessions, getUserDetails, lockUser, removeTwoFactor, unlockUser } from './users-api';

/** Every users query ('admin:users:list:…', 'admin:users:detail:…') starts with this. */
export const USERS_QUERY_PREFIX = 'admin:users:';

const FAILURES: Record<UserAction['kind'], string> = {
  lock: 'Failed to lock user account',
  unlock: 'Failed to unlock user account',
  'remove-2fa': 'Failed to remove two-step verification',
  'end-sessions': 'Failed to end sessions',
  revoke: 'Failed to revoke session',
};

/** A button's name as the opener is remembered by (its aria-label, else its text). */
const nameOf = (button: HTMLElement) => button.getAttribute('aria-label') ?? button.textContent;

/**
 * A user's details (GET /api/admin/users/:id): the account, counts, sessions, recent events, and
 * the actions the admin may take; each action asks first, in place of the details.
 */
export function UserDetailsDialog({
  userId,
  onClose,
  onViewEvents,
}: {
  userId: string;
  onClose: () => void;
  /** Security Events filtered on this account (absent: no link). */
  onViewEvents?: (userId: string) => void;
}) {
  const api = useAdminApi();
  const cache = useQueryCache();
  const { admin, can } = useAdminSession();
  const details = useAdminQuery(`${USERS_QUERY_PREFIX}detail:${userId}`, (a) => getUserDetails(a, userId));
  const action = useConfirmAction<UserAction>();
  const [success, setSuccess] = useState<string | null>(null);
  // useConfirmAction leaves `busy` set after a success (its dialogs close then); here the details
  // stay open, so only a pane that is still asking counts as busy.
  const busy = action.open && action.busy;
  // Where focus goes once a pane closes (WCAG 2.4.3): back to the button that opened it, or, after
  // an action, to the success note (the opener may be gone: Lock became Unlock).
  const bodyRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLParagraphElement>(null);
  const opener = useRef<string | null>(null);
  const refocus = useRef<'opener' | 'success' | null>(null);

  useEffect(() => {
    if (!refocus.current || action.open) return;
    const buttons = [...(bodyRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const back = refocus.current === 'opener' ? buttons.find((b) => nameOf(b) === opener.current) : undefined;
    (back ?? successRef.current)?.focus();
    refocus.current = null;
  }, [action.open, success]);

  const done = (message: string) => {
    refocus.current = 'success';
    setSuccess(message);
    cache.invalidate(USERS_QUERY_PREFIX);
    cache.invalidate('admin:stats');
  };

  const run = (data: AdminUserDetails, input: ActionInput) =>
    action.confirm(
      async (chosen) => {
        const { user } = data;
        const reason = input.reason.trim();
        switch (chosen.kind) {
          case 'lock':
            await lockUser(api, user._id, { reason, duration: Number(input.duration) });
            return done(`${user.username} is locked`);
          case 'unlock':
            await unlockUser(api, user._id, reason);
            return done(`${user.username} is unlocked`);
          case 'remove-2fa':
            await removeTwoFactor(api, user._id, { confirm: input.confirm, reason });
            return done(`Two-step verification of ${user.username} removed`);
          case 'end-sessions': {
            const ended = await endUserSessions(api, user._id, reason);
            return done(`${ended} ${ended === 1 ? 'session' : 'sessions'} of ${user.username} ended`);
          }
          case 'revoke':
            await revokeAdminSession(api, chosen.session.sessionId);
            return done('Session revoked');
        }
      },
      (e) => actionFailureText(e, action.target ? FAILURES[action.target.kind] : 'Action failed'),
    );

  let body;
  if (details.data) {
    const data = details.data;
    body = action.target ? (
      <UserActionPane
        user={data.user}
        action={action.target}
        busy={busy}
        error={action.error}
        onConfirm={(input) => void run(data, input)}
        onCancel={() => {
          refocus.current = 'opener';
          action.cancel();
        }}
      />
    ) : (
      <>
        <UserDetailsView
          details={data}
          onAction={(a) => {
            const active = document.activeElement;
            opener.current = active instanceof HTMLButtonElement ? nameOf(active) : null;
            setSuccess(null);
            action.ask(a);
          }}
          onViewEvents={onViewEvents && can('security:read') ? () => onViewEvents(userId) : undefined}
        />
        {admin.role === 'super_admin' && admin.id !== data.user._id ? (
          <RoleForm
            key={`${data.user.role}:${data.user.permissions.join()}`}
            user={data.user}
            onSaved={done}
          />
        ) : null}
      </>
    );
  } else if (details.status === 'error') {
    const message = messageOf(details.error, 'Failed to load user details');
    body = (
      <RetryBanner title="Failed to load user details" onRetry={() => void details.refetch()}>
        {message === 'Failed to load user details' ? null : message}
      </RetryBanner>
    );
  } else {
    body = <Spinner label="Loading user details" />;
  }

  return (
    <Dialog
      open
      size="lg"
      title={details.data ? `User: ${details.data.user.username}` : 'User details'}
      onClose={busy ? undefined : onClose}
      closeOnBackdrop={!busy}
      footer={
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Close
        </Button>
      }
    >
      <SuccessNote message={success} ref={successRef} />
      <div ref={bodyRef}>{body}</div>
    </Dialog>
  );
}
