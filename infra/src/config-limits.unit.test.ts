import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';
import { siteRules } from './http/origin';

const problems = (env: Record<string, string>) => {
  try {
    parseConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe('the limits a request is held to', () => {
  it('has defaults that keep npm start working, and takes whole numbers within bounds', () => {
    expect(parseConfig({})).toMatchObject({
      UPLOAD_QUOTA_MB_PER_FIRM: 1024,
      REQUEST_TIMEOUT_MS: 120_000,
      BODY_TIMEOUT_MS: 30_000,
      ALLOWED_HOSTS: [],
    });
    expect(parseConfig({ UPLOAD_QUOTA_MB_PER_FIRM: '50', REQUEST_TIMEOUT_MS: '5000', BODY_TIMEOUT_MS: '500' })).toMatchObject({
      UPLOAD_QUOTA_MB_PER_FIRM: 50,
      REQUEST_TIMEOUT_MS: 5000,
      BODY_TIMEOUT_MS: 500,
    });
  });

  it('stops at start-up naming a wrong one', () => {
    expect(problems({ UPLOAD_QUOTA_MB_PER_FIRM: '0' })).toEqual(['Invalid setting UPLOAD_QUOTA_MB_PER_FIRM: must be at least 1 (MB)']);
    expect(problems({ UPLOAD_QUOTA_MB_PER_FIRM: '1.5' })).toEqual([
      'Invalid setting UPLOAD_QUOTA_MB_PER_FIRM: must be a whole number of megabytes',
    ]);
    expect(problems({ UPLOAD_QUOTA_MB_PER_FIRM: 'lots' })).toEqual([
      'Invalid setting UPLOAD_QUOTA_MB_PER_FIRM: must be a whole number of megabytes',
    ]);
    expect(problems({ REQUEST_TIMEOUT_MS: '10' })[0]).toMatch(/^Invalid setting REQUEST_TIMEOUT_MS: /);
    expect(problems({ BODY_TIMEOUT_MS: '-1' })[0]).toMatch(/^Invalid setting BODY_TIMEOUT_MS: /);
    for (const hosts of ['https://console.example.com', 'console.example.com:8080', 'a b', 'x/y'])
      expect(problems({ ALLOWED_HOSTS: hosts })).toEqual([
        'Invalid setting ALLOWED_HOSTS: must be host names separated by commas (such as console.example.com,proxy), or *',
      ]);
  });
});

describe('ALLOWED_HOSTS', () => {
  const refuses = (env: Record<string, string>, host: string | undefined) => siteRules(parseConfig(env)).refuseHost(host) !== null;

  it('answers to this machine by default, and to the hosts of PUBLIC_URL, ALLOWED_ORIGINS and the list, on any port', () => {
    for (const host of ['localhost:5000', 'LOCALHOST', '127.0.0.1:5000', '[::1]:5000']) expect(refuses({}, host)).toBe(false);
    for (const host of ['rebound.example', 'localhost.rebound.example:5000', '127.0.0.2', '', undefined])
      expect(refuses({}, host)).toBe(true);
    const env = {
      PUBLIC_URL: 'https://console.example.com',
      ALLOWED_ORIGINS: 'https://partner.example:8443',
      ALLOWED_HOSTS: 'proxy, 10.0.0.5',
    };
    for (const host of ['console.example.com', 'partner.example:443', 'proxy', 'proxy:80', '10.0.0.5:3000'])
      expect(refuses(env, host)).toBe(false);
    expect(refuses(env, 'other.example')).toBe(true);
    expect(refuses({ ALLOWED_HOSTS: '*' }, 'anything.example')).toBe(false);
  });
});
