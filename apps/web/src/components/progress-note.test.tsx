import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProgressNote } from './progress-note';

describe('ProgressNote', () => {
  it('shows a labelled bar at the count when the end is known, and no spinner', () => {
    const { container } = render(
      <ProgressNote done={4000} total={10000} label="Notes decrypted">
        Decrypting 6000 more...
      </ProgressNote>,
    );
    const bar = screen.getByRole('progressbar', { name: 'Notes decrypted' });
    expect(bar.getAttribute('value')).toBe('4000');
    expect(bar.getAttribute('max')).toBe('10000');
    expect(container.querySelector('.spinner')).toBeNull();
    expect(container.textContent).toContain('Decrypting 6000 more...');
  });

  it('keeps the bar full when the count runs past a stale total', () => {
    render(
      <ProgressNote done={12} total={10}>
        Decrypting 3 more...
      </ProgressNote>,
    );
    expect(screen.getByRole('progressbar', { name: 'Progress' }).getAttribute('value')).toBe('10');
  });

  it('spins when the end is not known', () => {
    const { container } = render(<ProgressNote total={0}>Decrypting more...</ProgressNote>);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(container.querySelector('.spinner')).not.toBeNull();
  });
});
