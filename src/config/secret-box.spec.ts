import { randomBytes } from 'node:crypto';
import { open, seal, SecretBoxError } from './secret-box.js';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and every sealing differs (fresh IV)', () => {
    const a = seal(key, 'geheim', 'cmp-1/erp-1');
    const b = seal(key, 'geheim', 'cmp-1/erp-1');
    expect(a.equals(b)).toBe(false);
    expect(a.includes(Buffer.from('geheim'))).toBe(false);
    expect(open(key, a, 'cmp-1/erp-1')).toBe('geheim');
  });

  it('refuses another owner, another key and a tampered ciphertext', () => {
    const sealed = seal(key, 'geheim', 'cmp-1/erp-1');
    expect(() => open(key, sealed, 'cmp-2/erp-1')).toThrow(SecretBoxError);
    expect(() => open(randomBytes(32), sealed, 'cmp-1/erp-1')).toThrow(SecretBoxError);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => open(key, tampered, 'cmp-1/erp-1')).toThrow(SecretBoxError);
    expect(() => open(key, Buffer.from([9, 1, 2]), 'cmp-1/erp-1')).toThrow(SecretBoxError);
  });
});
