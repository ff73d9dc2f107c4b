import type { ReactNode } from 'react';
import { AlertIcon, CheckIcon, InfoIcon } from './icons';

export type BannerTone = 'info' | 'success' | 'warning' | 'danger';

export interface BannerProps {
  tone?: BannerTone;
  title?: ReactNode;
  children?: ReactNode;
  /** Buttons or links at the end. */
  action?: ReactNode;
  icon?: ReactNode;
  /** 'alert' interrupts screen readers (errors); 'status' is polite. Default by tone. */
  role?: 'alert' | 'status' | 'none';
  className?: string;
}

const ICONS: Record<BannerTone, ReactNode> = {
  info: <InfoIcon />,
  success: <CheckIcon />,
  warning: <AlertIcon />,
  danger: <AlertIcon />,
};

export function Banner({ tone = 'info', title, children, action, icon, role, className }: BannerProps) {
  const liveRole = role ?? (tone === 'danger' ? 'alert' : 'status');
  return (
    <div
      className={['banner', `banner--${tone}`, className ?? ''].filter(Boolean).join(' ')}
      role={liveRole === 'none' ? undefined : liveRole}
    >
      <span className="banner__icon">{icon ?? ICONS[tone]}</span>
      <div className="banner__body">
        {title ? <p className="banner__title">{title}</p> : null}
        {children ? <div className="banner__text">{children}</div> : null}
      </div>
      {action ? <div className="banner__action">{action}</div> : null}
    </div>
  );
}

/** A form's or an action's error, when there is one: the danger banner (an alert), else nothing. */
export function ErrorBanner({ error }: { error: ReactNode }) {
  return error ? <Banner tone="danger">{error}</Banner> : null;
}
