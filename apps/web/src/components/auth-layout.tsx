import type { ReactNode } from 'react';
import { LockIcon, LogoMark, ShieldCheckIcon } from './icons';

/** The frame of the signed-out screens: brand, a card, and the end-to-end promise. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="auth">
      <div className="auth__inner">
        <div className="auth__brand">
          <span className="auth__logo" aria-hidden="true">
            <LogoMark width={28} height={28} />
          </span>
          <span className="auth__brand-name">Vault</span>
        </div>
        <main className="auth__card">
          <h1 className="auth__title">{title}</h1>
          {subtitle ? <p className="auth__subtitle">{subtitle}</p> : null}
          {children}
        </main>
        {footer ? <div className="auth__footer">{footer}</div> : null}
        <ul className="auth__promises">
          <li>
            <LockIcon width={16} height={16} /> Encrypted on your device
          </li>
          <li>
            <ShieldCheckIcon width={16} height={16} /> Your password never leaves it
          </li>
        </ul>
      </div>
    </div>
  );
}
