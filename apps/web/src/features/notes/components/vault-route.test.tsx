import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { FakeNotesApi, makeVaultKey, renderNotes, sealNote } from '../testing/notes-harness';

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
    await waitFor(() => expect(count('1 notes')).toBeTruthy());
    expect(count('1 deleted notes')).toBeTruthy();

    // Create.
    await user.click(await screen.findByRole('button', { name: 'New Note' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Title'), 'Two');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(count('2 notes')).toBeTruthy());

    // Delete (to the trash).
    await user.click(await screen.findByRole('button', { name: 'One' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete note' }));
    await waitFor(() => expect(count('2 deleted notes')).toBeTruthy());
    expect(count('1 notes')).toBeTruthy();

    // Restore, then empty the trash.
    await user.click(within(sidebar()).getByRole('link', { name: /Trash/ }));
    await user.click(await screen.findByRole('button', { name: 'Restore One' }));
    await waitFor(() => expect(count('1 deleted notes')).toBeTruthy());
    expect(count('2 notes')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Empty Trash' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Empty Trash' }),
    );
    await waitFor(() => expect(count('0 deleted notes')).toBeTruthy());

    // The restored note is back in the vault without a reload of the list.
    await router.navigate('/vault');
    expect(await screen.findByRole('button', { name: 'One' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Notes (2)' })).toBeTruthy();
  });

  it('Settings → Data & Privacy has the export and import sections', async () => {
    await renderNotes(routes, { path: '/settings?tab=data', api: new FakeNotesApi() });
    expect(await screen.findByRole('heading', { name: 'Export notes' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Import notes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export Notes' })).toBeTruthy();
    expect(screen.getByLabelText('Choose backup file')).toBeTruthy();
  });
});
