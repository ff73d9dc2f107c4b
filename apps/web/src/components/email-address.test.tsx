import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailAddress } from './email-address';

describe('EmailAddress', () => {
  it('reads as the address: a break point after the @, the domain one box with break points before its dots', () => {
    const { container } = render(
      <strong>
        <EmailAddress email="first.last+vault@mail.example.org" />
      </strong>,
    );
    const strong = container.querySelector('strong')!;
    expect(strong.textContent).toBe('first.last+vault@mail.example.org');
    expect(strong.innerHTML).toBe(
      'first.last+vault@<wbr><span class="email-address__domain">mail<wbr>.example<wbr>.org</span>',
    );
  });

  it('leaves anything without an @ as it is', () => {
    const { container } = render(<EmailAddress email="no-address" />);
    expect(container.innerHTML).toBe('no-address');
  });
});
