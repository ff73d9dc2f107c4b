import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';

export function SidebarBrand({ icon, name, tagline }: { icon: ReactNode; name: string; tagline?: string }) {
  return (
    <div className="sidebar__brand">
      <span className="sidebar__logo" aria-hidden="true">
        {icon}
      </span>
      <span>
        <span className="sidebar__name">{name}</span>
        {tagline ? <span className="sidebar__tagline">{tagline}</span> : null}
      </span>
    </div>
  );
}

export function SidebarNav({ label, children }: { label: string; children: ReactNode }) {
  return (
    <nav className="sidebar__nav" aria-label={label}>
      <ul className="sidebar__list">{children}</ul>
    </nav>
  );
}

export interface SidebarLinkProps {
  to: string;
  icon: ReactNode;
  label: string;
  /** A count badge; hidden when undefined. */
  count?: number | undefined;
  countLabel?: string;
  end?: boolean;
}

export function SidebarLink({ to, icon, label, count, countLabel, end }: SidebarLinkProps) {
  return (
    <li>
      <NavLink
        to={to}
        end={end}
        className={({ isActive }) => `sidebar__link${isActive ? ' sidebar__link--active' : ''}`}
      >
        <span className="sidebar__icon">{icon}</span>
        <span className="sidebar__label">{label}</span>
        {count !== undefined ? (
          <span className="sidebar__count" aria-label={countLabel ?? String(count)}>
            {count}
          </span>
        ) : null}
      </NavLink>
    </li>
  );
}

export function SidebarFooter({ children }: { children: ReactNode }) {
  return <div className="sidebar__footer">{children}</div>;
}
