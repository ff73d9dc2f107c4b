import { toSessionDto } from './session.mapper';

const session = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  userId: '0b1e6c1a-3c2d-4e5f-8a9b-0c1d2e3f4a5b',
  createdAt: Date.UTC(2026, 0, 1, 10),
  lastSeenAt: Date.UTC(2026, 0, 1, 11),
  expiresAt: Date.UTC(2026, 0, 31, 10),
  ip: '203.0.113.7',
  userAgent: 'Firefox',
};

describe('session mapper', () => {
  it('maps a stored session with ISO dates and flags the caller’s own one', () => {
    expect(toSessionDto(session, session.id)).toEqual({
      id: session.id,
      current: true,
      ipAddress: '203.0.113.7',
      userAgent: 'Firefox',
      createdAt: '2026-01-01T10:00:00.000Z',
      lastSeenAt: '2026-01-01T11:00:00.000Z',
      expiresAt: '2026-01-31T10:00:00.000Z',
    });
  });

  it('marks other sessions as not current', () => {
    expect(toSessionDto(session, 'another').current).toBe(false);
    expect(toSessionDto(session, undefined).current).toBe(false);
  });
});
