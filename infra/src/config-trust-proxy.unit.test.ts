import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

describe('TRUST_PROXY', () => {
  it('believes a proxy on this machine by default; takes true, false, or a list of addresses, ranges and names', () => {
    expect(parseConfig({}).TRUST_PROXY).toEqual(['loopback']);
    expect(parseConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8,192.0.2.7, uniquelocal' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.7',
      'uniquelocal',
    ]);
  });

  it('names what it cannot read', () => {
    const problems = (value: string) => {
      try {
        parseConfig({ TRUST_PROXY: value });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems('proxy.example.com, 10.0.0.0/33')).toEqual([
      'Invalid setting TRUST_PROXY: must be true, false, or a list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; not proxy.example.com, 10.0.0.0/33',
    ]);
  });
});
