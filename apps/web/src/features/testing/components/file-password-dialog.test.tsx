import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useFilePassword, type FilePassword } from '../model/use-file-password';
import { deferred } from '../testing/deferred';
import { FILE_PASSWORD_TEXT, FilePasswordDialog } from './file-password-dialog';

/** The page's wiring: the hook, its dialog, and `ask` handed to the test. */
function renderPrompt(derive: (password: string) => Promise<string>) {
  const held: { current: FilePassword | null } = { current: null };
  function Harness() {
    const filePassword = useFilePassword(derive);
    held.current = filePassword;
    return <FilePasswordDialog {...filePassword.dialog} />;
  }
  const view = render(<Harness />);
  const ask = (signal = new AbortController().signal) => {
    let answer!: Promise<string | null>;
    act(() => {
      answer = held.current!.ask(signal);
    });
    return answer;
  };
  return { user: userEvent.setup(), ask, ...view };
}

const dialog = () => screen.queryByRole('dialog', { name: FILE_PASSWORD_TEXT.title });
const field = () => screen.getByLabelText<HTMLInputElement>('Current Password');

describe('the file check’s password dialog', () => {
  it('opens only when asked, derives the authKey from the typed password and keeps nothing', async () => {
    const derive = vi.fn(async (password: string) => `key-of-${password}`);
    const { user, ask } = renderPrompt(derive);
    expect(dialog()).toBeNull();
    const answer = ask();
    expect(dialog()).toBeTruthy();
    expect(document.activeElement).toBe(field());
    expect(field().type).toBe('password');
    await user.type(field(), 'Correct-horse-1{Enter}');
    await expect(answer).resolves.toBe('key-of-Correct-horse-1');
    expect(derive).toHaveBeenCalledExactlyOnceWith('Correct-horse-1');
    await waitFor(() => expect(dialog()).toBeNull());
    // Asked again (the next run): an empty field.
    void ask();
    expect(field().value).toBe('');
  });

  it.each(['Cancel', 'Escape'])('%s answers null: the check skips the download part', async (how) => {
    const derive = vi.fn(async () => 'key');
    const { user, ask } = renderPrompt(derive);
    const answer = ask();
    await user.type(field(), 'typed');
    if (how === 'Cancel') await user.click(screen.getByRole('button', { name: 'Cancel' }));
    else await user.keyboard('{Escape}');
    await expect(answer).resolves.toBeNull();
    expect(dialog()).toBeNull();
    expect(derive).not.toHaveBeenCalled();
  });

  it('Stop closes the dialog and answers null', async () => {
    const { ask } = renderPrompt(async () => 'key');
    const controller = new AbortController();
    const answer = ask(controller.signal);
    expect(dialog()).toBeTruthy();
    act(() => controller.abort());
    await expect(answer).resolves.toBeNull();
    expect(dialog()).toBeNull();
    // Already stopped: nothing opens.
    await expect(ask(controller.signal)).resolves.toBeNull();
    expect(dialog()).toBeNull();
  });

  it('refuses an empty password, shows a failed derivation and lets the user try again', async () => {
    const first = deferred<string>();
    const derive = vi.fn().mockReturnValueOnce(first.promise).mockResolvedValueOnce('key-2');
    const { user, ask } = renderPrompt(derive);
    const answer = ask();
    await user.click(screen.getByRole('button', { name: FILE_PASSWORD_TEXT.action }));
    expect(screen.getByRole('alert').textContent).toBe(FILE_PASSWORD_TEXT.required);
    expect(derive).not.toHaveBeenCalled();
    await user.type(field(), 'pw-1{Enter}');
    // While the KDF runs the field is disabled and Cancel cannot be pressed.
    expect(field().disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
    await act(async () => first.reject(new Error('The server did not answer the sign-in parameters')));
    expect(screen.getByRole('alert').textContent).toBe('The server did not answer the sign-in parameters');
    expect(field().value).toBe('');
    await user.type(field(), 'pw-2{Enter}');
    await expect(answer).resolves.toBe('key-2');
    expect(derive).toHaveBeenLastCalledWith('pw-2');
  });

  it('answers null when the page goes away while it is open', async () => {
    const { ask, unmount } = renderPrompt(async () => 'key');
    const answer = ask();
    unmount();
    await expect(answer).resolves.toBeNull();
  });
});
