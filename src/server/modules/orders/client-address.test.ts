import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address.ts';

const secret = 'a-secret-that-is-long-enough-for-the-test-0123';

describe('the client address an order keeps', () => {
  it('is a keyed hash, never the address, and differs with the secret', () => {
    const key = clientAddressKey(secret, '203.0.113.9');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key).not.toContain('203');
    expect(clientAddressKey('another-secret-that-is-long-enough-0123456', '203.0.113.9')).not.toBe(key);
    expect(clientAddressKey(secret, '203.0.113.10')).not.toBe(key);
  });

  it('counts an IPv4-mapped address as its IPv4 address and an IPv6 address by its /64', () => {
    expect(clientAddressKey(secret, '::ffff:203.0.113.9')).toBe(clientAddressKey(secret, '203.0.113.9'));
    const block = clientAddressKey(secret, '2001:db8:1:2::1');
    expect(clientAddressKey(secret, '2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(block);
    expect(clientAddressKey(secret, '2001:DB8:1:2:a::%eth0')).toBe(block);
    expect(clientAddressKey(secret, '2001:db8:1:3::1')).not.toBe(block);
    expect(clientAddressKey(secret, '::1')).toBe(clientAddressKey(secret, '0:0:0:0:0:0:0:2'));
  });

  it('is null when the address is unknown', () => {
    expect(clientAddressKey(secret, undefined)).toBeNull();
    expect(clientAddressKey(secret, '')).toBeNull();
  });
});
