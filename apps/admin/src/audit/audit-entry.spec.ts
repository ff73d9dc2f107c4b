import {
  auditEncoding,
  auditEntryInputSchema,
  auditHash,
  GENESIS_HASH,
  type AuditRecord,
} from './audit-entry';

// Known answers computed outside this code, with the shell (apps/admin/README.md "Checking it
// yourself"):  printf '%s' '<the encoding below>' | sha256sum
const first: Omit<AuditRecord, 'hash'> = {
  id: '1',
  createdAt: new Date('2026-11-25T16:45:00.123Z'),
  actorId: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
  actorLabel: 'root@example.org',
  action: 'user.lock',
  targetType: 'user',
  targetId: '0b3a9a4e-2f5d-4c1e-9a7b-3c2d1e0f9a8b',
  reason: 'Spam "wave"',
  ip: '203.0.113.7',
  userAgent: 'Mozilla/5.0',
  // Keys out of order on purpose: the encoding sorts them.
  details: { sessions: 2, minutes: 60 },
  prevHash: GENESIS_HASH,
};
const FIRST_HASH = '547ae1d1ad073736c9856170ee50e9079d8a9a76e34f50c4a72f03898a30d8a1';

const second: Omit<AuditRecord, 'hash'> = {
  id: '2',
  createdAt: new Date('2026-11-25T16:46:00.000Z'),
  actorId: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
  actorLabel: 'Zoë',
  action: 'system.rescan',
  targetType: 'system',
  targetId: null,
  reason: null,
  ip: '::1',
  userAgent: 'curl/8.5',
  details: {},
  prevHash: FIRST_HASH,
};
const SECOND_HASH = '2472c2111ede2f186315604a6324671c95555582fa49facab2a2cb63a4e30250';

describe('the audit log encoding (version 1)', () => {
  it('writes the documented JSON array: tag, id as a string, ISO time with milliseconds, sorted details', () => {
    expect(auditEncoding(first)).toBe(
      '["vault-admin-audit-v1","1","2026-11-25T16:45:00.123Z","6f1c2d3e-4b5a-4c6d-8e7f-901234567890",' +
        '"root@example.org","user.lock","user","0b3a9a4e-2f5d-4c1e-9a7b-3c2d1e0f9a8b","Spam \\"wave\\"",' +
        `"203.0.113.7","Mozilla/5.0",{"minutes":60,"sessions":2},"${'0'.repeat(64)}"]`,
    );
    expect(auditEncoding(second)).toBe(
      '["vault-admin-audit-v1","2","2026-11-25T16:46:00.000Z","6f1c2d3e-4b5a-4c6d-8e7f-901234567890",' +
        `"Zoë","system.rescan","system",null,null,"::1","curl/8.5",{},"${FIRST_HASH}"]`,
    );
  });

  it('hashes to the known answers (hex SHA-256 of the UTF-8 bytes)', () => {
    expect(auditHash(first)).toBe(FIRST_HASH);
    expect(auditHash(second)).toBe(SECOND_HASH);
  });

  it('changes with every field', () => {
    const variants: Partial<Omit<AuditRecord, 'hash'>>[] = [
      { id: '3' },
      { createdAt: new Date('2026-11-25T16:45:00.124Z') },
      { actorId: '6f1c2d3e-4b5a-4c6d-8e7f-901234567891' },
      { actorLabel: 'root@example.com' },
      { action: 'user.unlock' },
      { targetType: 'session' },
      { targetId: null },
      { reason: null },
      { ip: '203.0.113.8' },
      { userAgent: 'Mozilla/5.1' },
      { details: { sessions: 3, minutes: 60 } },
      { prevHash: SECOND_HASH },
    ];
    const hashes = variants.map((v) => auditHash({ ...first, ...v }));
    expect(new Set([FIRST_HASH, ...hashes]).size).toBe(variants.length + 1);
  });

  describe('what an entry may hold', () => {
    const valid = {
      actorId: '6F1C2D3E-4B5A-4C6D-8E7F-901234567890',
      actorLabel: 'root',
      action: 'user.lock',
      targetType: 'user',
      targetId: 'x',
      reason: null,
      ip: '127.0.0.1',
      userAgent: '',
    };

    it('lower-cases the actor id (Postgres prints a uuid lower-case) and defaults details to {}', () => {
      expect(auditEntryInputSchema.parse(valid)).toMatchObject({
        actorId: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
        details: {},
      });
    });

    it.each([
      ['a NUL in a text', { reason: 'a\u0000b' }],
      ['a lone surrogate', { actorLabel: 'a\ud800' }],
      ['an empty actor label', { actorLabel: '' }],
      ['an action that is not a name', { action: 'Lock User' }],
      ['a fractional count', { details: { minutes: 1.5 } }],
      ['a nested object', { details: { user: { name: 'x' } } }],
      ['a detail key that is not a plain name', { details: { 'a b': 1 } }],
      ['an unknown field', { extra: 1 }],
    ])('refuses %s', (_label, change) => {
      expect(auditEntryInputSchema.safeParse({ ...valid, ...change }).success).toBe(false);
    });
  });
});
