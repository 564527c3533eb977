import { describe, expect, it } from 'vitest';
import { scrubRow } from './recorder';

describe('scrubRow: what the audit log stores', () => {
  const jwt =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0aWQiOiIwMDAwMDAiLCJ1aWQiOiIxIn0.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu';

  it('masks a token or password in any text column, keeps what the server wrote itself', () => {
    const row = scrubRow({
      tenantId: '000000',
      method: 'POST',
      requestUri: `/api/dfem-user/${jwt}`,
      params: `blade-auth=bearer ${jwt}&pwd=Plain#1`,
      userAgent: `curl password=Plain#1 ${jwt.slice(0, 60)}`,
      createBy: jwt.slice(0, 64),
      statusCode: 401,
      createTime: new Date(0),
    });
    expect(JSON.stringify(row)).not.toMatch(/eyJ[\w-]{8,}|Plain#1/);
    expect(row).toMatchObject({ tenantId: '000000', method: 'POST', statusCode: 401 });
  });

  it('never makes a text longer than it was (it was clipped to its column already)', () => {
    const text = `${'x'.repeat(250)}pwd=a`;
    const out = scrubRow({ params: text }).params;
    expect(out.length).toBeLessThanOrEqual(text.length);
    expect(out).not.toContain('pwd=a');
  });
});
