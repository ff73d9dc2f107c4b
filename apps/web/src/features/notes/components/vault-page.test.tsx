import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeNotesApi, LEGACY_KEY, renderNotes, sealMany, sealNote } from '../testing/notes-harness';
import { makeVaultKey } from '../testing/notes-harness';
import { TEST_USER, json } from '../../../testing/fake-server';
import { NOTE_ANSWER_MISMATCH } from '../api/same-note';
import { noteFreshnessFor } from '../state/note-freshness';
import { formatNoteDate } from '../utils/note-format';
import { VaultPage } from './vault-page';

const routes = [
  { path: '/vault', element: <VaultPage /> },
  { path: '/settings', element: <h1>Settings screen</h1> },
];

async function setup(make: (key: CryptoKey) => Promise<FakeNotesApi>) {
  const key = await makeVaultKey();
  const api = await make(key);
  const view = await renderNotes(routes, { path: '/vault', api, vaultKey: key });
  return view;
}

const cards = () => screen.queryAllByRole('article');

/** A note's dates: last updated at midnight UTC on `day`. */
const updatedOn = (day: string) => ({ updatedAt: `${day}T00:00:00.000Z` });

describe('VaultPage', () => {
  it("shows 'Loading your vault...' and then the cards with title, preview, tags, date and 'Encrypted'", async () => {
    const long = 'L'.repeat(160);
    const { api } = await setup(async (key) => {
      const api = new FakeNotesApi([
        await sealNote(
          key,
          { title: 'Groceries', content: long, tags: ['home', 'food', 'weekly', 'list', 'errands'] },
          { createdAt: '2026-03-01T08:00:00.000Z', updatedAt: '2026-03-02T09:30:00.000Z' },
        ),
        await sealNote(key, { title: '', content: '' }, { createdAt: '2026-02-01T08:00:00.000Z' }),
      ]);
      api.hold('GET /api/notes');
      return api;
    });
    expect(screen.getByText('Loading your vault...')).toBeTruthy();
    act(() => api.release('GET /api/notes'));

    expect(await screen.findByRole('heading', { name: 'Notes (2)' })).toBeTruthy();
    const [first, second] = cards();
    const one = within(first!);
    expect(one.getByRole('button', { name: 'Groceries' })).toBeTruthy();
    expect(one.getByText('L'.repeat(150) + '…')).toBeTruthy();
    expect(one.getByText('home')).toBeTruthy();
    expect(one.getByText('weekly')).toBeTruthy();
    expect(one.queryByText('list')).toBeNull();
    expect(one.getByText('+2 more')).toBeTruthy();
    expect(one.getByText('Encrypted')).toBeTruthy();
    expect(first!.querySelector('time')?.textContent).toBe(
      `Updated ${formatNoteDate('2026-03-02T09:30:00.000Z')}`,
    );
    expect(within(second!).getByRole('button', { name: 'Untitled' })).toBeTruthy();
    expect(second!.querySelector('time')?.textContent).toBe(
      `Created ${formatNoteDate('2026-02-01T08:00:00.000Z')}`,
    );
  });

  it('searches title, content and tags case-insensitively, with the filtered-empty hint', async () => {
    const { user } = await setup(
      async (key) =>
        new FakeNotesApi([
          await sealNote(
            key,
            { title: 'Alpha plan', content: 'first', tags: ['work'] },
            updatedOn('2026-03-03'),
          ),
          await sealNote(
            key,
            { title: 'Beta', content: 'Contains KIWI fruit', tags: [] },
            updatedOn('2026-03-02'),
          ),
          await sealNote(
            key,
            { title: 'Gamma', content: 'third', tags: ['Travel'] },
            updatedOn('2026-03-01'),
          ),
        ]),
    );
    await screen.findByRole('heading', { name: 'Notes (3)' });
    const search = screen.getByRole('searchbox', { name: 'Search notes' });
    await user.type(search, 'kiwi');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Beta' })).toBeTruthy();
    // The header keeps the number of decrypted notes; the panel shows the filtered number.
    expect(screen.getByRole('heading', { name: 'Notes (3)' })).toBeTruthy();

    await user.clear(search);
    await user.type(search, 'TRAVEL');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Gamma' })).toBeTruthy();

    await user.clear(search);
    await user.type(search, 'nothing like this');
    expect(await screen.findByText('No notes found')).toBeTruthy();
    expect(screen.getByText('Try a different search or fewer tags.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create Note' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
  });

  it('tag panel: sorted tags with counts, toggling, Active filters, Clear all and the totals', async () => {
    const { user } = await setup(
      async (key) =>
        new FakeNotesApi([
          await sealNote(key, { title: 'A', tags: ['work', 'urgent'] }, updatedOn('2026-03-03')),
          await sealNote(key, { title: 'B', tags: ['work'] }, updatedOn('2026-03-02')),
          await sealNote(key, { title: 'C', tags: ['home', 'urgent'] }, updatedOn('2026-03-01')),
          await sealNote(key, { title: 'D' }, updatedOn('2026-02-01')),
        ]),
    );
    await screen.findByRole('heading', { name: 'Notes (4)' });
    const panel = screen.getByRole('complementary', { name: 'Tags' });
    const tagButtons = within(within(panel).getByRole('list', { name: 'Filter by tag' })).getAllByRole(
      'button',
    );
    expect(tagButtons.map((b) => b.textContent)).toEqual(['home1', 'urgent2', 'work2']);
    const totals = () =>
      Object.fromEntries(
        [...panel.querySelectorAll('.tag-panel__totals > div')].map((d) => [
          d.querySelector('dt')?.textContent,
          d.querySelector('dd')?.textContent,
        ]),
      );
    expect(totals()).toEqual({ 'Total notes': '4', 'Unique tags': '3', 'Filtered notes': '4' });

    await user.click(within(panel).getByRole('button', { name: /^work/ }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(within(panel).getByRole('button', { name: /^work/ }).getAttribute('aria-pressed')).toBe('true');
    expect(within(panel).getByText('Active filters')).toBeTruthy();

    // A note must have ALL selected tags.
    await user.click(within(panel).getByRole('button', { name: /^urgent/ }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'A' })).toBeTruthy();
    expect(totals()['Filtered notes']).toBe('1');

    await user.click(within(panel).getByRole('button', { name: 'Remove filter work' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    await user.click(within(panel).getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(within(panel).queryByText('Active filters')).toBeNull();
  });

  it("an empty vault: 'No notes found', the tag hint, and Create Note opens the dialog", async () => {
    const { user } = await setup(async () => new FakeNotesApi());
    expect(await screen.findByText('No notes found')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Notes (0)' })).toBeTruthy();
    expect(
      screen.getByText('No tags found. Tags will appear here as you create notes with tags.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create Note' }));
    expect(screen.getByRole('dialog', { name: 'New Note' })).toBeTruthy();
  });

  it('an error banner with Retry when the notes cannot be loaded', async () => {
    const { user, api } = await setup(async (key) =>
      new FakeNotesApi([await sealNote(key, { title: 'Back again' })]).unavailable('GET /api/notes'),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load notes: Service unavailable');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Back again' })).toBeTruthy();
    expect(api.calls('GET /api/notes')).toHaveLength(2);
  });

  it('Load More Notes shows the next 50, fetching pages with limit and cursor', async () => {
    const { user, api } = await setup(async (key) => new FakeNotesApi(await sealMany(key, 120)));
    await screen.findByRole('heading', { name: 'Notes (120)' });
    expect(cards()).toHaveLength(50);
    const first = api.calls('GET /api/notes')[0]!;
    expect(first.query.get('limit')).toBe('50');
    expect(first.query.get('cursor')).toBeNull();
    expect(api.calls('GET /api/notes')[1]!.query.get('cursor')).toBeTruthy();
    expect(screen.getByText('Showing 50 of 120')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Load More Notes' }));
    await waitFor(() => expect(cards()).toHaveLength(100));
    // Focus moves to the first newly shown card.
    expect(document.activeElement?.textContent).toBe('Note 50');
    await user.click(screen.getByRole('button', { name: 'Load More Notes' }));
    await waitFor(() => expect(cards()).toHaveLength(120));
    expect(screen.queryByRole('button', { name: 'Load More Notes' })).toBeNull();
  });

  it('no Load More Notes with 50 notes or fewer', async () => {
    await setup(async (key) => new FakeNotesApi(await sealMany(key, 50)));
    await screen.findByRole('heading', { name: 'Notes (50)' });
    expect(cards()).toHaveLength(50);
    expect(screen.queryByRole('button', { name: 'Load More Notes' })).toBeNull();
  });

  it("a note that cannot be decrypted shows 'Failed to decrypt note'; the others work", async () => {
    await setup(async (key) => {
      const damaged = await sealNote(key, { title: 'Damaged' }, updatedOn('2026-03-01'));
      // One flipped ciphertext character: the key opens, the title does not.
      const title = `${damaged.title[0] === 'a' ? 'b' : 'a'}${damaged.title.slice(1)}`;
      return new FakeNotesApi([
        await sealNote(key, { title: 'Readable' }, updatedOn('2026-03-02')),
        { ...damaged, title },
      ]);
    });
    expect(await screen.findByRole('button', { name: 'Readable' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Failed to decrypt note' })).toBeTruthy();
    // Counted like every note of the list (its card is shown); it is not a locked one.
    expect(screen.getByRole('heading', { name: 'Notes (2)' })).toBeTruthy();
    expect(screen.queryByText(/locked/)).toBeNull();
    expect(screen.queryByText('Damaged')).toBeNull();
  });

  it('a note sealed under another vault key (before an access reset) shows as locked, not as an error', async () => {
    await setup(async (key) => {
      const other = await makeVaultKey();
      const api = new FakeNotesApi([
        await sealNote(key, { title: 'Readable' }, updatedOn('2026-03-02')),
        await sealNote(other, { title: 'Foreign' }, updatedOn('2026-03-01')),
      ]);
      api.legacyKeys = [LEGACY_KEY];
      return api;
    });
    expect(await screen.findByRole('button', { name: 'Readable' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Locked note' })).toBeTruthy();
    expect(screen.getByText(/Enter your old password to unlock it/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Failed to decrypt note' })).toBeNull();
    expect(screen.queryByText('Foreign')).toBeNull();
    // The header counts the locked note and says so; the tag panel's total is the same.
    expect(screen.getByRole('heading', { name: 'Notes (2)' })).toBeTruthy();
    expect(screen.getByText('1 locked', { exact: false, selector: '.vault-notes__locked' })).toBeTruthy();
    const totals = screen.getByText('Total notes').closest('div')!;
    expect(totals.querySelector('dd')?.textContent).toBe('2');
  });

  it("without a key from before a reset, a note whose key does not open was tampered with: 'Failed to decrypt note', not locked", async () => {
    // A hostile server: the second note is served with the first one's wrapped key.
    await setup(async (key) => {
      const readable = await sealNote(key, { title: 'Readable' }, updatedOn('2026-03-02'));
      const victim = await sealNote(key, { title: 'Victim' }, updatedOn('2026-03-01'));
      return new FakeNotesApi([readable, { ...victim, wrappedDEK: readable.wrappedDEK }]);
    });
    expect(await screen.findByRole('button', { name: 'Readable' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Failed to decrypt note' })).toBeTruthy();
    expect(screen.getByText(/It may be damaged, or it was changed or sealed under another key/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Locked note' })).toBeNull();
    expect(screen.queryByText(/Enter your old password/)).toBeNull();
    expect(screen.queryByText(/locked/)).toBeNull();
    expect(screen.queryByText('Victim')).toBeNull();
  });

  it('creates a note: title required, tags, sealed body only, card and counts refreshed', async () => {
    const { user, api } = await setup(async () => new FakeNotesApi());
    await screen.findByText('No notes found');
    const countsBefore = api.calls('GET /api/notes/counts').length;
    await user.click(screen.getByRole('button', { name: 'New Note' }));
    const dialog = screen.getByRole('dialog', { name: 'New Note' });

    await user.type(within(dialog).getByLabelText('Title'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Title is required')).toBeTruthy();
    expect(api.calls('POST /api/notes')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Title'), 'Secret plan  ');
    await user.type(within(dialog).getByLabelText('Tags'), ' alpha {Enter}');
    await user.type(within(dialog).getByLabelText('Tags'), 'beta');
    await user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    await user.type(within(dialog).getByLabelText('Content'), '  the body  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [post] = api.calls('POST /api/notes');
    const body = post!.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['content', 'id', 'tags', 'title', 'wrappedDEK']);
    expect(JSON.stringify(body)).not.toMatch(/Secret|alpha|beta|the body/);
    expect(await screen.findByRole('button', { name: 'Secret plan' })).toBeTruthy();
    const card = screen.getByRole('article');
    expect(within(card).getByText('the body')).toBeTruthy();
    expect(within(card).getByText('alpha')).toBeTruthy();
    expect(within(card).getByText('beta')).toBeTruthy();
    await waitFor(() => expect(api.calls('GET /api/notes/counts').length).toBeGreaterThan(countsBefore));
  });

  it('edits a note: every field re-sealed, PUT, the card shows the change', async () => {
    const { user, api } = await setup(
      async (key) =>
        new FakeNotesApi([await sealNote(key, { title: 'Old title', content: 'old', tags: ['keep'] })]),
    );
    await user.click(await screen.findByRole('button', { name: 'Old title' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Note' });
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('Old title');
    expect(within(dialog).queryByRole('img', { name: 'Unsaved changes' })).toBeNull();
    await user.clear(within(dialog).getByLabelText('Title'));
    await user.type(within(dialog).getByLabelText('Title'), 'New title');
    expect(within(dialog).getByRole('img', { name: 'Unsaved changes' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove tag keep' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [put] = api.calls('PUT /api/notes/:id');
    expect(JSON.stringify(put!.body)).not.toContain('New title');
    expect(await screen.findByRole('button', { name: 'New title' })).toBeTruthy();
    expect(screen.queryByText('keep')).toBeNull();
  });

  it('an edit answered with another note (a hostile server) is refused: that note keeps its own text', async () => {
    class AnswersWithAnother extends FakeNotesApi {
      protected override handle(route: string, req: { method: string; path: string; body: unknown }) {
        const other = this.active.find((n) => !req.path.endsWith(n.id));
        if (route === 'PUT /api/notes/:id' && other) return json(200, { note: other });
        return super.handle(route, req as never);
      }
    }
    const { user } = await setup(
      async (key) =>
        new AnswersWithAnother([
          await sealNote(key, { title: 'Edited', content: 'before' }, updatedOn('2026-03-02')),
          await sealNote(key, { title: 'Bystander', content: 'its own' }, updatedOn('2026-03-01')),
        ]),
    );
    await user.click(await screen.findByRole('button', { name: 'Edited' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Note' });
    await user.clear(within(dialog).getByLabelText('Content'));
    await user.type(within(dialog).getByLabelText('Content'), 'typed here');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Failed to save note');
    expect(alert.textContent).toContain(NOTE_ANSWER_MISMATCH);
    // The bystander's card does not take the typed text; the edited one is unchanged here.
    const bystander = screen.getByRole('button', { name: 'Bystander' }).closest('article')!;
    expect(bystander.textContent).toContain('its own');
    expect(screen.getAllByText(/typed here/)).toHaveLength(1); // the dialog's field only
    expect(screen.getByRole('button', { name: 'Edited' }).closest('article')!.textContent).toContain(
      'before',
    );
  });

  it('a note older than a version this page already showed is refused as a rollback, not shown', async () => {
    await setup(async (key) => {
      const note = await sealNote(
        key,
        { title: 'Rolled back', content: 'old words' },
        updatedOn('2026-03-01'),
      );
      // This page showed a newer version of it before (an earlier unlock in the same page).
      noteFreshnessFor(TEST_USER.id).record(note.id, '2026-03-05T00:00:00.000Z');
      return new FakeNotesApi([note, await sealNote(key, { title: 'Current' }, updatedOn('2026-03-02'))]);
    });
    expect(await screen.findByRole('button', { name: 'Current' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Older version refused' })).toBeTruthy();
    expect(
      screen.getByText(/The server sent an older version of this note than this page already showed/),
    ).toBeTruthy();
    expect(screen.queryByText('Rolled back')).toBeNull();
    expect(screen.queryByText('old words')).toBeNull();
  });

  it("deletes from the dialog after 'Are you sure you want to delete this note?'", async () => {
    const { user, api } = await setup(
      async (key) => new FakeNotesApi([await sealNote(key, { title: 'Doomed' })]),
    );
    await user.click(await screen.findByRole('button', { name: 'Doomed' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Note' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(within(dialog).getByText('Are you sure you want to delete this note?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).queryByText('Are you sure you want to delete this note?')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete note' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('DELETE /api/notes/:id')).toHaveLength(1);
    expect(api.deleted).toHaveLength(1);
    expect(await screen.findByText('No notes found')).toBeTruthy();
  });

  it("'Failed to delete note' when the API refuses", async () => {
    const { user } = await setup(async (key) =>
      new FakeNotesApi([await sealNote(key, { title: 'Stays' })]).unavailable('DELETE /api/notes/:id'),
    );
    await user.click(await screen.findByRole('button', { name: 'Stays' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Note' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete note' }));
    expect(await within(dialog).findByText('Failed to delete note')).toBeTruthy();
    expect(within(dialog).getByText('Service unavailable')).toBeTruthy();
  });

  it("closing with unsaved changes asks 'You have unsaved changes. Are you sure you want to close?'", async () => {
    const { user } = await setup(async () => new FakeNotesApi());
    await screen.findByText('No notes found');
    const newNote = screen.getByRole('button', { name: 'New Note' });
    await user.click(newNote);
    // Nothing typed: closes at once.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(newNote);
    const dialog = screen.getByRole('dialog', { name: 'New Note' });
    await user.type(within(dialog).getByLabelText('Title'), 'Draft');
    await user.keyboard('{Escape}');
    expect(
      within(dialog).getByText('You have unsaved changes. Are you sure you want to close?'),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('dialog', { name: /^New Note/ })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Discard changes' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(newNote));
  });

  it("'Failed to save note' keeps the dialog; a retry sends the same id and ciphertext", async () => {
    const { user, api } = await setup(async () => new FakeNotesApi().unavailable('POST /api/notes'));
    await screen.findByText('No notes found');
    await user.click(screen.getByRole('button', { name: 'New Note' }));
    const dialog = screen.getByRole('dialog', { name: 'New Note' });
    await user.type(within(dialog).getByLabelText('Title'), 'Retry me');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Failed to save note')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [first, second] = api.calls('POST /api/notes');
    expect(second!.body).toEqual(first!.body);
    expect(await screen.findByRole('button', { name: 'Retry me' })).toBeTruthy();
  });

  it('the settings button goes to /settings', async () => {
    const { user, router } = await setup(async () => new FakeNotesApi());
    await screen.findByText('No notes found');
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    expect(router.state.location.pathname).toBe('/settings');
  });
});
