import { describe, expect, it } from 'vitest';
import { ConfigError, oidcSettings, parseConfig } from './config';

const problems = (env: Record<string, string>): string[] => {
  try {
    parseConfig(env);
    return [];
  } catch (error) {
    return error instanceof ConfigError ? error.problems : [String(error)];
  }
};

describe('the OpenID Connect settings', () => {
  it('are all three or none, naming each one missing', () => {
    expect(oidcSettings(parseConfig({}))).toBeNull();
    expect(problems({ OIDC_ISSUER: 'https://id.example.com' })).toEqual([
      'Invalid setting OIDC_CLIENT_ID: is required when OIDC_ISSUER is set (set all three OIDC_ settings, or none)',
      'Invalid setting OIDC_CLIENT_SECRET: is required when OIDC_ISSUER is set (set all three OIDC_ settings, or none)',
    ]);
    expect(problems({ OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 's3cret' })).toEqual([
      'Invalid setting OIDC_ISSUER: is required when OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set (set all three OIDC_ settings, or none)',
    ]);
  });

  it('take the issuer as an https URL, plain http only on this machine', () => {
    const complete = { OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 's3cret' };
    expect(problems({ ...complete, OIDC_ISSUER: 'id.example.com' })).toEqual([
      "Invalid setting OIDC_ISSUER: must be the provider's issuer URL (https://…)",
    ]);
    expect(problems({ ...complete, OIDC_ISSUER: 'http://id.example.com' })).toEqual([
      'Invalid setting OIDC_ISSUER: must be an https:// URL (http:// only for a provider on localhost)',
    ]);
    expect(oidcSettings(parseConfig({ ...complete, OIDC_ISSUER: 'http://127.0.0.1:4000' }))?.issuer).toBe('http://127.0.0.1:4000');
    expect(
      oidcSettings(parseConfig({ ...complete, OIDC_ISSUER: 'https://id.example.com/realms/pf', PUBLIC_URL: 'https://pf.example.co.uk' })),
    ).toEqual({
      issuer: 'https://id.example.com/realms/pf',
      clientId: 'console',
      clientSecret: 's3cret',
      publicUrl: 'https://pf.example.co.uk',
    });
    expect(problems({ PUBLIC_URL: 'pf.example.co.uk' })).toEqual(['Invalid setting PUBLIC_URL: must be an http:// or https:// URL']);
  });
});
