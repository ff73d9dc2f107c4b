import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/button';
import { SearchIcon } from '../../../components/icons';
import { SearchField } from '../../../components/search-field';
import { Spinner } from '../../../components/spinner';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useAdminQuery, useAdminSession } from '../api/admin-api';
import { AdminLoadError } from '../components/admin-load-error';
import { AdminSection } from '../components/admin-section';
import { EVENTS_USER_PARAM } from '../events/events-filters';
import { SelectField, SuccessNote } from '../tables/admin-table';
import { BulkBar } from './bulk-actions';
import { USERS_QUERY_PREFIX, UserDetailsDialog } from './user-details-dialog';
import { listUsers, USERS_PAGE_SIZE, type UserStatusFilter } from './users-api';
import { UsersTable } from './users-table';

const STATUS_OPTIONS: readonly { value: UserStatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'locked', label: 'Locked' },
  { value: 'admins', label: 'Admins' },
  { value: 'no-2fa', label: 'Without 2FA' },
];

/** Typing settles this long before the list is asked again. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * User Management: search and status filter, server pages of 10, row selection with bulk
 * actions, and a user's details (with the account actions) in a dialog.
 */
export function UsersTab() {
  const { can } = useAdminSession();
  const [, setParams] = useSearchParams();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [status, setStatus] = useState<UserStatusFilter>('all');
  const filter = `${status}:${search}`;
  // The page and the picked rows belong to one filter: a new search starts again at page 1.
  const [view, setView] = useState({ filter, page: 0, selected: new Set<string>() });
  const current = view.filter === filter ? view : { filter, page: 0, selected: new Set<string>() };
  const { page, selected } = current;
  const [openId, setOpenId] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const list = useAdminQuery(`${USERS_QUERY_PREFIX}list:${page}:${filter}`, (api) =>
    listUsers(api, { page, search, status }),
  );
  const users = list.data?.users ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const selectable = can('users:lock') || can('sessions:revoke');

  const setPage = (next: number) => setView({ filter, page: next, selected: new Set() });
  const setSelected = (next: Set<string>) => setView({ ...current, selected: next });
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (!next.delete(id)) next.add(id);
    setSelected(next);
  };

  let content;
  if (list.status === 'error') {
    content = <AdminLoadError error={list.error} onRetry={() => void list.refetch()} />;
  } else if (!list.data) {
    content = <Spinner label="Loading users" />;
  } else if (total === 0) {
    content = <p className="admin-table__muted">No users match</p>;
  } else {
    content = (
      <UsersTable
        users={users}
        selected={selected}
        selectable={selectable}
        onToggle={toggle}
        onToggleAll={(all) => setSelected(all ? new Set(users.map((u) => u._id)) : new Set())}
        onOpen={setOpenId}
      />
    );
  }

  return (
    <AdminSection id="admin-users" title="User Management">
      <div className="admin-toolbar">
        <SearchField
          id="admin-user-search"
          label="Search users by username or e-mail"
          placeholder="Search username or e-mail"
          value={searchText}
          onChange={setSearchText}
          icon={<SearchIcon className="vault-search__icon" width={18} height={18} />}
        />
        <SelectField label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
      </div>
      <SuccessNote message={success} />
      {selected.size > 0 ? (
        <BulkBar
          selected={users.filter((u) => selected.has(u._id))}
          onClear={() => setSelected(new Set())}
          onDone={(summary) => {
            setSuccess(summary);
            void list.refetch();
          }}
        />
      ) : null}
      {content}
      {/* Only over a loaded list: no "Page 1 of 1 (0 users)" while loading or after a failure. */}
      {list.data && total > 0 ? (
        <nav className="admin-pager" aria-label="User pages">
          <Button variant="secondary" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span aria-live="polite">
            Page {Math.min(page + 1, pages)} of {pages} ({total} {total === 1 ? 'user' : 'users'})
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={page + 1 >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </Button>
        </nav>
      ) : null}
      {openId ? (
        <UserDetailsDialog
          userId={openId}
          onClose={() => setOpenId(null)}
          onViewEvents={(id) => setParams({ tab: 'events', [EVENTS_USER_PARAM]: id }, { replace: true })}
        />
      ) : null}
    </AdminSection>
  );
}
