import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs';

const TABS = [
  { id: 'security', label: 'Security' },
  { id: 'data', label: 'Data & Privacy' },
  { id: 'account', label: 'Account' },
] as const;

function Harness() {
  const [value, setValue] = useState<(typeof TABS)[number]['id']>('security');
  return (
    <Tabs label="Settings sections" tabs={TABS} value={value} onChange={setValue}>
      <p>Panel {value}</p>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('exposes tabs, selection and a labelled panel', () => {
    render(<Harness />);
    expect(screen.getByRole('tablist', { name: 'Settings sections' })).toBeTruthy();
    const tab = screen.getByRole('tab', { name: 'Security' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Security' }).textContent).toBe('Panel security');
  });

  it('moves with the arrow keys, Home and End, with one tab stop', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Security' }));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Data & Privacy' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('Panel data');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Account' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Account' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').filter((t) => t.tabIndex === 0)).toHaveLength(1);
  });
});
