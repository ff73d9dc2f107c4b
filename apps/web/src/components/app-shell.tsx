import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { useMediaQuery } from '../lib/use-media-query';
import { CloseIcon, MenuIcon } from './icons';

/** Spec section 9: the sidebar is open by default at widths of 1024 and up. */
export const DESKTOP_QUERY = '(min-width: 1024px)';

export interface AppShellProps {
  /** The sidebar's content. */
  sidebar: ReactNode;
  /** Shown in the top bar next to the menu toggle. */
  topbar?: ReactNode;
  children: ReactNode;
  navLabel?: string;
}

/**
 * The signed-in layout: a sidebar and the page. At 1024 px and wider the sidebar sits beside the
 * page and is open by default (the toggle hides it); below that it is a drawer over the page,
 * closed by default, closed by Escape, the backdrop, its close button or following a link, with
 * the page made inert while it is open.
 */
export function AppShell({ sidebar, topbar, children, navLabel = 'Sidebar' }: AppShellProps) {
  const isDesktop = useMediaQuery(DESKTOP_QUERY, true);
  const [open, setOpen] = useState(isDesktop);
  const [wasDesktop, setWasDesktop] = useState(isDesktop);
  if (wasDesktop !== isDesktop) {
    setWasDesktop(isDesktop);
    setOpen(isDesktop);
  }
  const toggleRef = useRef<HTMLButtonElement>(null);
  const drawerRef = useRef<HTMLElement>(null);
  const location = useLocation();
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    if (!isDesktop) setOpen(false);
  }

  const drawerOpen = open && !isDesktop;

  useEffect(() => {
    if (!drawerOpen) return;
    const drawer = drawerRef.current;
    drawer?.querySelector<HTMLElement>('a[href], button:not([disabled])')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [drawerOpen]);

  return (
    <div
      className="shell"
      data-layout={isDesktop ? 'desktop' : 'mobile'}
      data-sidebar={open ? 'open' : 'closed'}
    >
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <aside ref={drawerRef} id="app-sidebar" className="shell__sidebar" aria-label={navLabel}>
        {!isDesktop ? (
          <button
            type="button"
            className="icon-btn shell__drawer-close"
            aria-label="Close navigation"
            onClick={() => {
              setOpen(false);
              toggleRef.current?.focus();
            }}
          >
            <CloseIcon />
          </button>
        ) : null}
        {sidebar}
      </aside>
      {drawerOpen ? (
        <div className="shell__backdrop" aria-hidden="true" onClick={() => setOpen(false)} />
      ) : null}
      <div className="shell__main" inert={drawerOpen}>
        <div className="shell__topbar">
          <button
            ref={toggleRef}
            type="button"
            className="icon-btn shell__toggle"
            aria-controls="app-sidebar"
            aria-expanded={open}
            aria-label={open ? 'Hide navigation' : 'Show navigation'}
            onClick={() => setOpen((o) => !o)}
          >
            <MenuIcon />
          </button>
          {topbar}
        </div>
        <main id="main-content" className="shell__content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
