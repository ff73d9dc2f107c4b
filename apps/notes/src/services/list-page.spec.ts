import { NOTE_JSON_OVERHEAD, takePage } from './list-page';

const note = (n: number, contentChars = 10) => ({
  n,
  title: 't',
  content: 'c'.repeat(contentChars),
  tags: [] as string[],
  wrappedDEK: 'k',
});
const rows = (count: number, contentChars = 10) =>
  Array.from({ length: count }, (_, i) => note(i, contentChars));

describe(takePage.name, () => {
  it('takes `limit` notes and says more follow when the extra row came back', () => {
    const { page, hasMore } = takePage(rows(4), 3);
    expect(page.map((r) => r.n)).toEqual([0, 1, 2]);
    expect(hasMore).toBe(true);
  });

  it('says nothing follows when fewer than limit + 1 rows came back', () => {
    expect(takePage(rows(3), 3)).toEqual({ page: rows(3), hasMore: false });
    expect(takePage([], 3)).toEqual({ page: [], hasMore: false });
  });

  it('ends the page early once the byte budget would be passed', () => {
    const size = 12 + NOTE_JSON_OVERHEAD;
    const { page, hasMore } = takePage(rows(10), 9, size * 4 + 1);
    expect(page).toHaveLength(4);
    expect(hasMore).toBe(true);
  });

  it('always takes one note, even one larger than the budget', () => {
    const { page, hasMore } = takePage(rows(2, 5000), 10, 100);
    expect(page).toHaveLength(1);
    expect(hasMore).toBe(true);
  });
});
