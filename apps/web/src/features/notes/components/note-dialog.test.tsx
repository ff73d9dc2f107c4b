import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toDecrypted } from '../state/notes-store';
import { NoteActionError } from '../state/use-note-actions';
import { NoteDialog } from './note-dialog';

const existing = toDecrypted(
  {
    id: '11111111-1111-4111-8111-111111111111',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
  { title: 'Existing', content: 'Body', tags: ['one'] },
);

function setup(note = null as typeof existing | null) {
  const props = {
    note,
    onClose: vi.fn(),
    onCreate: vi.fn(async () => undefined),
    onUpdate: vi.fn(async () => undefined),
    onDelete: vi.fn(async () => undefined),
  };
  const user = userEvent.setup();
  render(<NoteDialog {...props} />);
  return { ...props, user, dialog: screen.getByRole('dialog') };
}

describe('NoteDialog', () => {
  it('focuses the title; tags are added with Enter or +, trimmed, without empties or duplicates, and removed with ×', async () => {
    const { user, dialog, onCreate } = setup();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Title'));
    const tagInput = within(dialog).getByLabelText('Tags');
    await user.type(tagInput, '  work  {Enter}');
    await user.type(tagInput, '   {Enter}');
    await user.type(tagInput, 'work{Enter}');
    expect(within(dialog).getByText('"work" is already added')).toBeTruthy();
    await user.clear(tagInput);
    await user.type(tagInput, 'home');
    await user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    const chips = () =>
      within(within(dialog).getByRole('list', { name: 'Tags on this note' })).getAllByRole('listitem');
    expect(chips().map((c) => c.textContent)).toEqual(['work', 'home']);
    await user.click(within(dialog).getByRole('button', { name: 'Remove tag work' }));
    expect(chips().map((c) => c.textContent)).toEqual(['home']);
    // Enter in the tag field never submits the form.
    expect(onCreate).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText('Title'), '  Title  ');
    await user.type(within(dialog).getByLabelText('Content'), '  Content  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(onCreate).toHaveBeenCalledWith({ title: 'Title', content: 'Content', tags: ['home'] }, null);
  });

  it("'Title is required' after trimming, with focus back on the title", async () => {
    const { user, dialog, onCreate } = setup();
    await user.type(within(dialog).getByLabelText('Content'), 'only content');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Title is required')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Title'));
    expect(within(dialog).getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('edit mode: Update and Delete; the unsaved dot appears only after a change and goes when undone', async () => {
    const { user, dialog, onUpdate } = setup(existing);
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(dialog).queryByRole('img', { name: 'Unsaved changes' })).toBeNull();
    await user.type(within(dialog).getByLabelText('Content'), '!');
    expect(within(dialog).getByRole('img', { name: 'Unsaved changes' })).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Content'), '{Backspace}');
    expect(within(dialog).queryByRole('img', { name: 'Unsaved changes' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(onUpdate).toHaveBeenCalledWith(existing, { title: 'Existing', content: 'Body', tags: ['one'] });
  });

  it('no Delete button for a new note', () => {
    const { dialog } = setup();
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it("shows 'Failed to encrypt note' and 'Failed to save note' from the action", async () => {
    const { user, dialog, onCreate, onClose } = setup();
    onCreate.mockRejectedValueOnce(new NoteActionError('encrypt', 'worker gone'));
    await user.type(within(dialog).getByLabelText('Title'), 'T');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Failed to encrypt note')).toBeTruthy();
    onCreate.mockRejectedValueOnce(new NoteActionError('save', 'Note is too large: at most 1 MiB encrypted'));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Failed to save note')).toBeTruthy();
    expect(within(dialog).getByText('Note is too large: at most 1 MiB encrypted')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('Escape with unsaved changes asks first; Escape again keeps editing', async () => {
    const { user, dialog, onClose } = setup(existing);
    await user.type(within(dialog).getByLabelText('Title'), ' more');
    await user.keyboard('{Escape}');
    expect(
      within(dialog).getByText('You have unsaved changes. Are you sure you want to close?'),
    ).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Discard changes');
    await user.keyboard('{Escape}');
    expect(
      within(dialog).queryByText('You have unsaved changes. Are you sure you want to close?'),
    ).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });
});
