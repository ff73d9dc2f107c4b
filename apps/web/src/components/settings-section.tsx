import type { ReactNode } from 'react';

/** A settings card. `upcoming` marks a section whose controls arrive in a later milestone. */
export function SettingsSection({
  title,
  description,
  upcoming,
  tone,
  children,
}: {
  title: string;
  description: ReactNode;
  upcoming?: string;
  tone?: 'danger';
  children?: ReactNode;
}) {
  return (
    <section className={`settings-section${tone ? ` settings-section--${tone}` : ''}`}>
      <div className="settings-section__head">
        <h3 className="settings-section__title">{title}</h3>
        {upcoming ? <span className="tag tag--muted">{upcoming}</span> : null}
      </div>
      <div className="settings-section__description">{description}</div>
      {children}
    </section>
  );
}
