import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SupportReportButton } from './support-report-button';

const original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
afterEach(() => {
  if (original) Object.defineProperty(navigator, 'clipboard', original);
  else Reflect.deleteProperty(navigator, 'clipboard');
});

function setup(clipboard: { writeText?: (text: string) => Promise<void> } | undefined, report = 'REPORT') {
  const user = userEvent.setup();
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
  render(<SupportReportButton getReport={async () => report} />);
  return { user, button: () => screen.getByRole('button', { name: 'Copy support report' }) };
}

describe('Copy support report', () => {
  it('copies the report and says so politely', async () => {
    const writeText = vi.fn(async () => {});
    const { user, button } = setup({ writeText }, 'version: 1.4.0');
    await user.click(button());
    expect(await screen.findByText('Support report copied')).toBeTruthy();
    expect(screen.getByRole('status').getAttribute('aria-live')).toBe('polite');
    expect(writeText).toHaveBeenCalledWith('version: 1.4.0');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the report selected in a read-only box when the clipboard refuses', async () => {
    const { user, button } = setup({
      writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')),
    });
    await user.click(button());
    const dialog = await screen.findByRole('dialog', { name: 'Support report' });
    const area = within(dialog).getByRole('textbox', { name: 'Support report' }) as HTMLTextAreaElement;
    expect(area.readOnly).toBe(true);
    expect(area.value).toBe('REPORT');
    await waitFor(() => expect([area.selectionStart, area.selectionEnd]).toEqual([0, 'REPORT'.length]));
    expect(screen.queryByText('Support report copied')).toBeNull();
  });

  it('falls back too where there is no clipboard at all (insecure context)', async () => {
    const { user, button } = setup(undefined);
    await user.click(button());
    expect(await screen.findByRole('dialog', { name: 'Support report' })).toBeTruthy();
  });
});
