import { describe, expect, it } from 'vitest';
import { clientKey } from './client-address';

describe('clientKey', () => {
  it('keeps an IPv4 address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:7:1::/64';
    for (const address of [
      '2001:db8:7:1::1',
      '2001:db8:7:1:ffff:ffff:ffff:ffff',
      '2001:0DB8:0007:0001:0000:0000:0000:abcd',
      '2001:db8:7:1:1:2:192.0.2.1',
      '2001:db8:7:1::9%eth0',
      '[2001:db8:7:1::1]:443',
    ]) {
      expect(clientKey(address), address).toBe(key);
    }
    expect(clientKey('2001:db8:7:2::1')).toBe('2001:db8:7:2::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('takes an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('drops a port a proxy appended, and keeps what is no address', () => {
    expect(clientKey('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('not an address')).toBe('not an address');
  });
});
