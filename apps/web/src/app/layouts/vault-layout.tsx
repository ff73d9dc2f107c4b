import { useState } from 'react';
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
import { useSignOut } from '../../features/auth/hooks/use-sign-out';
import { useSession } from '../../features/auth/state/session-context';
import { useFileCounts } from '../../features/files/api/get-file-counts';
import { useNoteCounts } from '../../features/notes/api/get-note-counts';

const SECTION_TITLES: Record<string, string> = {
  vault: 'All Notes',
  files: 'File Vault',
  trash: 'Trash',
  testing: 'Testing Dashboard',
  settings: 'Settings',
};

/**
 * The sidebar's Trash count: deleted notes plus deleted files. Each count is left out while its
 * service does not answer (the counts calls answer null then); nothing is shown without either.
 */
export function trashCount(
  notes: number | undefined,
  files: number | undefined,
): { count: number; label: string } | undefined {
  if (notes === undefined && files === undefined) return undefined;
  const count = (notes ?? 0) + (files ?? 0);
  if (files === undefined) return { count, label: `${count} deleted notes` };
  if (notes === undefined) return { count, label: `${count} deleted files` };
  return { count, label: `${count} deleted ${count === 1 ? 'item' : 'items'}` };
}

/** The signed-in, unlocked layout: the app shell with the sidebar of spec section 2. */
export function VaultLayout() {
  const { user } = useSession();
  const counts = useNoteCounts(Boolean(user));
  const fileCounts = useFileCounts(Boolean(user));
  const trash = trashCount(counts.data?.deleted, fileCounts.data?.deleted);
  const signOut = useSignOut();
  const [signingOut, setSigningOut] = useState(false);
  const location = useLocation();
  const section = SECTION_TITLES[location.pathname.split('/')[1] ?? ''] ?? '';

  const sidebar = (
    <div className="sidebar">
      <SidebarBrand icon={<LogoMark width={22} height={22} />} name="Vault" tagline="Personal vault" />
      <SidebarNav label="Main">
        <SidebarLink
          to="/vault"
          icon={<NotesIcon />}
          label="All Notes"
          count={counts.data?.active}
          countLabel={counts.data ? `${counts.data.active} notes` : undefined}
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
