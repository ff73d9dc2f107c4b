import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { FakeNotesApi, LEGACY_KEY, makeVaultKey, renderNotes, sealNote } from '../testing/notes-harness';

/** The real route table and shell: the sidebar's counts follow every change made on the screens. */
describe('notes in the app shell', () => {
  it('All Notes and Trash counts in the sidebar are refreshed after create, delete, restore and empty trash', async () => {
    const key = await makeVaultKey();
    const api = new FakeNotesApi(
      [await sealNote(key, { title: 'One' }, { updatedAt: '2026-03-02T00:00:00.000Z' })],
      [await sealNote(key, { title: 'Binned' }, { deletedAt: '2026-03-01T00:00:00.000Z' })],
    );
    const { user, router } = await renderNotes(routes, { path: '/vault', api, vaultKey: key });
    const sidebar = () => screen.getByRole('navigation', { name: 'Main' });
    const count = (label: string) => within(sidebar()).getByLabelText(label);
    await waitFor(() => expect(count('1 note')).toBeTruthy());
    expect(count('1 deleted item')).toBeTruthy();

    // Create.
    await user.click(await screen.findByRole('button', { name: 'New Note' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Title'), 'Two');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(count('2 notes')).toBeTruthy());

    // Delete (to the trash).
    await user.click(await screen.findByRole('button', { name: 'One' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete note' }));
    await waitFor(() => expect(count('2 deleted items')).toBeTruthy());
    expect(count('1 note')).toBeTruthy();

    // Restore, then empty the trash.
    await user.click(within(sidebar()).getByRole('link', { name: /Trash/ }));
    await user.click(await screen.findByRole('button', { name: 'Restore One' }));
    await waitFor(() => expect(count('1 deleted item')).toBeTruthy());
    expect(count('2 notes')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Empty Trash' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Empty Trash' }),
    );
    await waitFor(() => expect(count('0 deleted items')).toBeTruthy());

    // The restored note is back in the vault without a reload of the list.
    await router.navigate('/vault');
    expect(await screen.findByRole('button', { name: 'One' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Notes (2)' })).toBeTruthy();
  });

  it('after an access reset the header and the sidebar count the same notes, the locked one said in both', async () => {
    const key = await makeVaultKey();
    // The only note is sealed under the vault key from before the reset: locked.
    const oldKey = await makeVaultKey();
    const api = new FakeNotesApi([await sealNote(oldKey, { title: 'Before the reset' })]);
    api.legacyKeys = [LEGACY_KEY];
    await renderNotes(routes, { path: '/vault', api, vaultKey: key });
    expect(await screen.findByRole('heading', { name: 'Locked note' })).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    expect(screen.getByRole('heading', { name: 'Notes (1)' })).toBeTruthy();
    expect(screen.getByText('1 locked', { exact: false, selector: '.vault-notes__locked' })).toBeTruthy();
    await waitFor(() => expect(within(sidebar).getByLabelText('1 note, 1 locked').textContent).toBe('1'));

    // With a readable note beside it: both say 2, and which one is locked.
    const both = new FakeNotesApi([
      await sealNote(key, { title: 'New' }, { updatedAt: '2026-03-02T00:00:00.000Z' }),
      await sealNote(oldKey, { title: 'Old' }, { updatedAt: '2026-03-01T00:00:00.000Z' }),
    ]);
    both.legacyKeys = [LEGACY_KEY];
    cleanup();
    await renderNotes(routes, { path: '/vault', api: both, vaultKey: key });
    expect(await screen.findByRole('button', { name: 'New' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Notes (2)' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(within(nav).getByLabelText('2 notes, 1 locked').textContent).toBe('2'));
  });

  it('sidebar counts that failed to load come back with Retry, without a reload', async () => {
    const key = await makeVaultKey();
    const api = new FakeNotesApi(
      [await sealNote(key, { title: 'One' }, { updatedAt: '2026-03-02T00:00:00.000Z' })],
      [await sealNote(key, { title: 'Binned' }, { deletedAt: '2026-03-01T00:00:00.000Z' })],
    );
    // The gateway hiccups: the list and the counts fail once.
    api.unavailable('GET /api/notes');
    api.unavailable('GET /api/notes/counts');
    const { user } = await renderNotes(routes, { path: '/vault', api, vaultKey: key });
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    expect(await screen.findByText(/Failed to load notes/)).toBeTruthy();
    await waitFor(() => expect(api.calls('GET /api/notes/counts')).toHaveLength(1));
    expect(sidebar.querySelector('.sidebar__count')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'One' })).toBeTruthy();
    await waitFor(() => expect(within(sidebar).getByLabelText('1 note').textContent).toBe('1'));
    expect(within(sidebar).getByLabelText('1 deleted item').textContent).toBe('1');
    expect(screen.getByRole('heading', { name: 'Notes (1)' })).toBeTruthy();
  });

  it('a counts call that failed while the list loaded is asked again on the next page', async () => {
    const key = await makeVaultKey();
    const api = new FakeNotesApi(
      [await sealNote(key, { title: 'One' })],
      [await sealNote(key, { title: 'Binned' }, { deletedAt: '2026-03-01T00:00:00.000Z' })],
    );
    api.unavailable('GET /api/notes/counts');
    const { user } = await renderNotes(routes, { path: '/vault', api, vaultKey: key });
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    expect(await screen.findByRole('button', { name: 'One' })).toBeTruthy();
    await waitFor(() => expect(api.calls('GET /api/notes/counts').length).toBeGreaterThan(0));
    await user.click(within(sidebar).getByRole('link', { name: /Settings/ }));
    await waitFor(() => expect(within(sidebar).getByLabelText('1 deleted item').textContent).toBe('1'));
    expect(within(sidebar).getByLabelText('1 note').textContent).toBe('1');
  });

  it('Settings → Data & Privacy has the export and import sections', async () => {
    await renderNotes(routes, { path: '/settings?tab=data', api: new FakeNotesApi() });
    expect(await screen.findByRole('heading', { name: 'Export notes' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Import notes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export Notes' })).toBeTruthy();
    expect(screen.getByLabelText('Choose backup file')).toBeTruthy();
  });
});
