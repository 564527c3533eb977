import { describe, expect, it } from 'vitest';
import { sanitizeUrl } from './logging';

describe('sanitizeUrl', () => {
  it('hides credentials in the query and keeps the rest', () => {
    const out = sanitizeUrl(
      '/api/dfem-auth/oauth/token?tenantId=000000&username=admin&password=abc&grant_type=refresh_token&refresh_token=xyz',
    );
    expect(out).not.toContain('abc');
    expect(out).not.toContain('xyz');
    expect(out).toContain('username=admin');
    expect(out).toContain('password=***');
  });

  it('leaves a URL without a query alone', () => {
    expect(sanitizeUrl('/api/x')).toBe('/api/x');
  });
});
