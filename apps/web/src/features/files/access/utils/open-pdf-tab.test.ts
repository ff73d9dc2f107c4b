import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPdfTab } from './open-pdf-tab';

afterEach(() => vi.restoreAllMocks());

describe('openPdfTab', () => {
  it('opens a page of this origin titled with the file name, the PDF in a frame of its object URL', () => {
    const doc = document.implementation.createHTMLDocument('');
    const tab = { document: doc, opener: {} as unknown, location: { href: 'about:blank' } };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);

    expect(openPdfTab('blob:http://localhost/1234', 'Quarterly report.pdf')).toBe(true);

    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(doc.title).toBe('Quarterly report.pdf');
    const frames = doc.body.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    expect(frames[0]!.getAttribute('src')).toBe('blob:http://localhost/1234');
    expect(frames[0]!.title).toBe('Quarterly report.pdf');
    // Styled through the CSSOM: no style attribute for the CSP to refuse in markup.
    expect(frames[0]!.style.position).toBe('fixed');
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe('about:blank');
  });

  it('says so when the pop-up is blocked', () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    expect(openPdfTab('blob:http://localhost/1234', 'a.pdf')).toBe(false);
  });

  it('shows the PDF under its object URL when the tab cannot be written to', () => {
    const tab = {
      get document(): Document {
        throw new DOMException('Blocked', 'SecurityError');
      },
      opener: {} as unknown,
      location: { href: 'about:blank' },
    };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    expect(openPdfTab('blob:http://localhost/1234', 'a.pdf')).toBe(true);
    expect(tab.location.href).toBe('blob:http://localhost/1234');
    expect(tab.opener).toBeNull();
  });
});
