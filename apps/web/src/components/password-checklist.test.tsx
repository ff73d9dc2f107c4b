import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordChecks } from '../lib/signup-validation';
import { PasswordChecklist } from './password-checklist';

const met = () =>
  within(screen.getByRole('list', { name: 'Password requirements' }))
    .getAllByRole('listitem')
    .filter((li) => li.getAttribute('data-met') === 'true')
    .map((li) => li.textContent?.replace(/\s*\(.*\)$/, ''));

describe('PasswordChecklist', () => {
  it('lists the five requirements and marks those met', () => {
    const { rerender } = render(<PasswordChecklist checks={passwordChecks('', '')} />);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent?.replace(/\s*\(.*\)$/, ''))).toEqual([
      'At least 8 characters',
      'One lowercase letter',
      'One uppercase letter',
      'One number',
      'Passwords match',
    ]);
    expect(met()).toEqual([]);
    rerender(<PasswordChecklist checks={passwordChecks('abcdefgh', '')} />);
    expect(met()).toEqual(['At least 8 characters', 'One lowercase letter']);
    rerender(<PasswordChecklist checks={passwordChecks('Abcdefg1', 'Abcdefg1')} />);
    expect(met()).toHaveLength(5);
    expect(screen.getAllByText('(met)', { exact: false })).toHaveLength(5);
  });
});
