import { newTimeOrderedUuid, parsePublicId, toPublicId } from './ids.js';

describe('newTimeOrderedUuid', () => {
  it('is a version 7 UUID with the RFC variant, a valid public id', () => {
    const uuid = newTimeOrderedUuid();
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parsePublicId('inv', toPublicId('inv', uuid))).toBe(uuid);
  });

  it('starts with the millisecond clock, so later ids sort after earlier ones', () => {
    expect(newTimeOrderedUuid(0x0123456789ab).slice(0, 13)).toBe('01234567-89ab');
    expect(newTimeOrderedUuid(1_700_000_000_001) > newTimeOrderedUuid(1_700_000_000_000)).toBe(true);
  });
});
