import { useEffect, useEffectEvent, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { AppShell } from '../../components/app-shell';
import {
  FlaskIcon,
  FolderIcon,
  LockIcon,
  LogoMark,
  NotesIcon,
  SettingsIcon,
  SignOutIcon,
  TrashIcon,
} from '../../components/icons';
import { SidebarBrand, SidebarFooter, SidebarLink, SidebarNav } from '../../components/sidebar';
import { Spinner } from '../../components/spinner';
import { useFileCounts } from '../../features/files/api/get-file-counts';
import { useNoteTotals } from '../../features/notes/state/use-note-totals';
import { useSession } from '../../lib/session/session-context';
import { useSignOut } from '../../lib/session/use-sign-out';

const SECTION_TITLES: Record<string, string> = {
  vault: 'All Notes',
  files: 'File Vault',
  trash: 'Trash',
  testing: 'Testing Dashboard',
  settings: 'Settings',
};

/**
 * The sidebar's Trash count: deleted notes plus deleted files, like the Trash page. Shown only when
 * both are known: a sum missing one of them would count something else under the same badge.
 */
export function trashCount(
  notes: number | undefined,
  files: number | undefined,
): { count: number; label: string } | undefined {
  if (notes === undefined || files === undefined) return undefined;
  const count = notes + files;
  return { count, label: `${count} deleted ${count === 1 ? 'item' : 'items'}` };
}

/** The signed-in, unlocked layout: the app shell with the sidebar of spec section 2. */
export function VaultLayout() {
  const { user } = useSession();
  // The same totals as the vault's 'Notes (n)' header (useNoteTotals): locked notes counted and said.
  const notes = useNoteTotals(Boolean(user));
  const fileCounts = useFileCounts(Boolean(user));
  const trash = trashCount(notes.deleted, fileCounts.data?.deleted);
  const signOut = useSignOut();
  const [signingOut, setSigningOut] = useState(false);
  const location = useLocation();
  const section = SECTION_TITLES[location.pathname.split('/')[1] ?? ''] ?? '';

  // A counts call that failed is asked again when the notes list loads (Retry included) and when
  // another page opens, so the counts come back without a reload.
  const listLoaded = notes.snapshot.status === 'ready' && notes.snapshot.error === null;
  const refetchFailedCounts = useEffectEvent(() => {
    if (!user) return;
    if (notes.counts.status === 'error') void notes.counts.refetch();
    if (fileCounts.status === 'error') void fileCounts.refetch();
  });
  useEffect(() => {
    refetchFailedCounts();
  }, [listLoaded, location.pathname]);

  const sidebar = (
    <div className="sidebar">
      <SidebarBrand icon={<LogoMark width={22} height={22} />} name="Vault" tagline="Personal vault" />
      <SidebarNav label="Main">
        <SidebarLink
          to="/vault"
          icon={<NotesIcon />}
          label="All Notes"
          count={notes.active}
          countLabel={notes.label}
        />
        <SidebarLink to="/files" icon={<FolderIcon />} label="File Vault" />
        <SidebarLink
          to="/trash"
          icon={<TrashIcon />}
          label="Trash"
          count={trash?.count}
          countLabel={trash?.label}
        />
        <SidebarLink to="/testing" icon={<FlaskIcon />} label="Testing Dashboard" />
        <SidebarLink to="/settings" icon={<SettingsIcon />} label="Settings" />
      </SidebarNav>
      <SidebarFooter>
        <div className="sidebar__account">
          <span className="sidebar__avatar" aria-hidden="true">
            {(user?.email ?? '?').slice(0, 1).toUpperCase()}
          </span>
          <span className="sidebar__email" title={user?.email}>
            {user?.email}
          </span>
        </div>
        <p className="sidebar__encrypted">
          <LockIcon width={14} height={14} /> Client-side encrypted
        </p>
        <button
          type="button"
          className="sidebar__link sidebar__signout"
          disabled={signingOut}
          onClick={() => {
            setSigningOut(true);
            void signOut();
          }}
        >
          <span className="sidebar__icon">{signingOut ? <Spinner size="sm" /> : <SignOutIcon />}</span>
          <span className="sidebar__label">Sign Out</span>
        </button>
      </SidebarFooter>
    </div>
  );

  return (
    <AppShell
      sidebar={sidebar}
      navLabel="Sidebar"
      topbar={
        <div className="topbar">
          <span className="topbar__section">{section}</span>
          <span className="topbar__status">
            <LockIcon width={14} height={14} /> Vault unlocked
          </span>
        </div>
      }
    >
      <Outlet />
    </AppShell>
  );
}
