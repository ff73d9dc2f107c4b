import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/button';
import { LockIcon } from '../../../components/icons';
import { useDocumentTitle } from '../../../lib/use-document-title';

export const GATE_TEXT = {
  deniedTitle: 'Access Denied',
  denied: 'You need admin privileges to access this page.',
  forbiddenTitle: 'Insufficient Permissions',
  forbidden: "You don't have permission to access this resource.",
} as const;

/** 401 at /admin: no admin session (spec section 2). */
export function AccessDenied() {
  useDocumentTitle(GATE_TEXT.deniedTitle);
  return (
    <div className="gate">
      <div className="gate__card">
        <span className="gate__icon" aria-hidden="true">
          <LockIcon width={28} height={28} />
        </span>
        <h1 className="gate__title">{GATE_TEXT.deniedTitle}</h1>
        <p>{GATE_TEXT.denied}</p>
        <ButtonLink to="/admin/login">Admin Login</ButtonLink>
      </div>
    </div>
  );
}

/** 403: signed in, without the permission (the whole console, or one tab inside it). */
export function InsufficientPermissions({ page = true }: { page?: boolean }) {
  const Heading = page ? 'h1' : 'h2';
  const card = (
    <div className="gate__card">
      <span className="gate__icon gate__icon--danger" aria-hidden="true">
        <LockIcon width={28} height={28} />
      </span>
      <Heading className="gate__title">{GATE_TEXT.forbiddenTitle}</Heading>
      <p>{GATE_TEXT.forbidden}</p>
      {page ? <ButtonLink to="/admin/login">Admin Login</ButtonLink> : null}
    </div>
  );
  return page ? <ForbiddenPage>{card}</ForbiddenPage> : card;
}

function ForbiddenPage({ children }: { children: ReactNode }) {
  useDocumentTitle(GATE_TEXT.forbiddenTitle);
  return <div className="gate">{children}</div>;
}
