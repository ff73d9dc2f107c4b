import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PasswordPrompt, type PasswordPromptProps } from './password-prompt';

function Harness(props: Partial<PasswordPromptProps> & { startOpen?: boolean }) {
  const [open, setOpen] = useState(props.startOpen ?? true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Reopen
      </button>
      <PasswordPrompt
        open={open}
        title={props.title ?? 'Authenticate Download'}
        description={props.description ?? 'Enter your password to download "report.pdf"'}
        actionText={props.actionText ?? 'Download'}
        loading={props.loading ?? false}
        error={props.error ?? null}
        onSubmit={props.onSubmit ?? (() => undefined)}
        onClose={() => {
          props.onClose?.();
          setOpen(false);
        }}
      />
    </>
  );
}

describe('PasswordPrompt', () => {
  it('shows the title, the description, a Current Password field and the action', () => {
    render(<Harness />);
    const dialog = screen.getByRole('dialog', { name: 'Authenticate Download' });
    expect(dialog.textContent).toContain('Enter your password to download "report.pdf"');
    expect(screen.getByLabelText('Current Password').getAttribute('type')).toBe('password');
    expect(screen.getByLabelText('Current Password').getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Download' }).disabled).toBe(false);
    // Focus starts in the field.
    expect(document.activeElement).toBe(screen.getByLabelText('Current Password'));
  });

  it("refuses an empty password with 'Please enter your password' and does not submit", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your password');
    expect(onSubmit).not.toHaveBeenCalled();
    // Typing clears the message.
    await user.type(screen.getByLabelText('Current Password'), 'x');
    expect(screen.queryByText('Please enter your password')).toBeNull();
  });

  it('submits the typed password (Enter or the action button)', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText('Current Password'), 'Correct-horse-1{Enter}');
    expect(onSubmit).toHaveBeenCalledWith('Correct-horse-1');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it("shows the caller's error (e.g. 'Invalid password')", () => {
    render(<Harness error="Invalid password" />);
    expect(screen.getByRole('alert').textContent).toBe('Invalid password');
  });

  it('closes on Escape when not loading, and forgets the typed password', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    await user.type(screen.getByLabelText('Current Password'), 'secret');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(screen.getByLabelText<HTMLInputElement>('Current Password').value).toBe('');
  });

  it('does not close on Escape or Cancel while loading; the form is disabled and says so', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const onSubmit = vi.fn();
    render(<Harness loading onClose={onClose} onSubmit={onSubmit} />);
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Authenticate Download' })).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Current Password').disabled).toBe(true);
    const action = screen.getByRole<HTMLButtonElement>('button', { name: 'Verifying...' });
    expect(action.disabled).toBe(true);
    expect(action.getAttribute('aria-busy')).toBe('true');
  });

  it('takes other wording (the preview prompt)', () => {
    render(
      <Harness
        title="Authenticate Preview"
        description='Enter your password to preview "photo.png"'
        actionText="Preview"
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Authenticate Preview' }).textContent).toContain(
      'Enter your password to preview "photo.png"',
    );
    expect(screen.getByRole('button', { name: 'Preview' })).toBeTruthy();
  });
});
