import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logging';
import { scrubJsonMembers, scrubText, scrubValue } from './scrub';

const ARGON = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXBhcnQ';
const MD5 = createHash('md5').update('Secret#1').digest('hex');
const ID18 = '11010119900307451X';
const ID15 = '110101900307451';
const PHONE = '13912345678';

/** A drizzle error as the driver throws it: the bound values in the message, `params` and the cause. */
function driverError() {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "u_account"'), {
    code: '23505',
    detail: `Key (tenant_id, account)=(000000, ${PHONE}) already exists.`,
  });
  const params = ['000000', 'zhang', ARGON, PHONE, ID18];
  const err = new Error(
    `Failed query: insert into "blade_user" values ($1, $2, $3, $4, $5)\nparams: ${params}`,
  );
  return Object.assign(err, { query: 'insert into "blade_user" values ($1, $2, $3, $4, $5)', params, cause });
}

const SECRETS = [ARGON, '$argon2', JWT, MD5, ID18, ID15, PHONE, 'Secret#1', 'zhang'];
const clean = (s: string) => SECRETS.filter((x) => s.includes(x));

describe('scrubText', () => {
  it('masks hashes, tokens, md5s, ID-card and phone numbers and keeps the rest', () => {
    const out = scrubText(
      `user ${PHONE} id ${ID18} old ${ID15} pw ${MD5} hash ${ARGON} jwt ${JWT} Bearer abc.def ok 1600000000000000123`,
    );
    expect(clean(out)).toEqual([]);
    expect(out).toContain('[redacted:phone]');
    expect(out).toContain('[redacted:idcard]');
    expect(out).toContain('[redacted:md5]');
    expect(out).toContain('[redacted:argon2]');
    expect(out).toContain('[redacted:jwt]');
    expect(out).toContain('Bearer [redacted]');
    expect(out).toContain('1600000000000000123'); // a 19-digit id is not an ID-card number
    expect(scrubText('+86 139-1234-5678')).toBe('[redacted:phone]');
  });

  it('cuts the parameters of a failed query and the values of a constraint detail', () => {
    const msg = 'Failed query: insert into t values ($1, $2)\nparams: zhang,Secret#1';
    expect(scrubText(msg)).toBe('Failed query: insert into t values ($1, $2)\nparams: [redacted]');
    expect(scrubText('Key (tenant_id, account)=(000000, zhang) already exists.')).toBe(
      'Key (tenant_id, account)=([redacted]) already exists.',
    );
    expect(scrubText('Failing row contains (1, zhang, Secret#1).')).toBe('Failing row contains ([redacted])');
  });

  it('hides secret pairs in URLs and JSON text', () => {
    expect(scrubText('/x?size=10&password=Secret#1&refresh_token=abc')).toBe(
      '/x?size=10&password=***&refresh_token=***',
    );
    expect(scrubText('{"oldPassword":"Secret#1","name":"n"}')).toBe(
      '{"oldPassword":"[redacted]","name":"n"}',
    );
  });

  it('leaves ordinary text alone and is idempotent', () => {
    const plain = 'request completed in 12.5 ms: GET /api/blade-user/page?current=1&size=10';
    expect(scrubText(plain)).toBe(plain);
    const once = scrubText(`${PHONE} ${ARGON} ${JWT}`);
    expect(scrubText(once)).toBe(once);
  });

  it('runs in linear time on long texts', () => {
    const long = `${'a'.repeat(200_000)}=x ${'1'.repeat(100_000)}`;
    const t = performance.now();
    scrubText(long);
    expect(performance.now() - t).toBeLessThan(500);
  });
});

describe('scrubValue', () => {
  it('redacts secret keys at any depth, case-insensitively', () => {
    const out = scrubValue({
      Password: 'Secret#1',
      a: {
        b: { newPassword1: MD5, access_token: JWT, refreshToken: 'r', Authorization: 'x', 'set-cookie': 'c' },
      },
      user: {
        idCard: 'whatever',
        phone: 'p',
        Mobile: 'm',
        salt: 's',
        hash: 'h',
        pwd: 'w',
        passwd: 'v',
        secret: 'z',
      },
      mustChangePassword: true,
      nothing: null,
    }) as Record<string, any>;
    expect(out.Password).toBe('[redacted]');
    expect(Object.values(out.a.b)).toEqual(Array(5).fill('[redacted]'));
    expect(Object.values(out.user)).toEqual(Array(8).fill('[redacted]'));
    expect(out.mustChangePassword).toBe(true);
    expect(out.nothing).toBeNull();
  });

  it('turns a driver error into a plain scrubbed object without its parameters', () => {
    const out = scrubValue({ err: driverError() }) as Record<string, any>;
    const text = JSON.stringify(out);
    expect(clean(text)).toEqual([]);
    expect(out.err.type).toBe('Error');
    expect(out.err.message).toContain('Failed query: insert into "blade_user"');
    expect(out.err.params).toBe('[redacted: 5 params]');
    expect(out.err.stack).toMatch(/params: \[redacted\]\n\s+at /); // the frames stay
    expect(out.err.cause.code).toBe('23505');
    expect(out.err.cause.detail).toBe('Key (tenant_id, account)=([redacted]) already exists.');
  });

  it('masks numbers that are phone numbers and strings in arrays, keeps other values', () => {
    const out = scrubValue({
      n: Number(PHONE),
      t: 1718000000000,
      list: [PHONE, 'x', 3],
      d: new Date(0),
    }) as any;
    expect(out).toEqual({
      n: '[redacted:phone]',
      t: 1718000000000,
      list: ['[redacted:phone]', 'x', 3],
      d: new Date(0),
    });
  });

  it('survives cycles, depth, width, throwing getters and non-enumerable causes', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    let deep: Record<string, unknown> = { phone: PHONE };
    for (let i = 0; i < 50; i++) deep = { next: deep };
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, PHONE]));
    const getter = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const withCause = new Error('outer', { cause: new Error(`inner ${PHONE}`) });
    const out = scrubValue({ a, deep, wide, getter, withCause, big: Buffer.alloc(10) }) as any;
    expect(out.a.self).toBe('[circular]');
    expect(JSON.stringify(out)).not.toContain(PHONE);
    expect(JSON.stringify(out.deep)).toContain('[too deep]');
    expect(Object.keys(out.wide).length).toBeLessThanOrEqual(101);
    expect(out.getter.boom).toBe('[unreadable]');
    expect(out.withCause.cause.message).toBe('inner [redacted:phone]');
    expect(out.big).toBe('[binary 10 bytes]');
    // a shared (not cyclic) object is shown each time
    const shared = { x: 1 };
    expect(scrubValue({ p: shared, q: shared })).toEqual({ p: { x: 1 }, q: { x: 1 } });
  });

  it('does not change its input', () => {
    const input = { password: 'Secret#1', err: driverError() };
    scrubValue(input);
    expect(input.password).toBe('Secret#1');
    expect(input.err.params).toHaveLength(5);
  });
});

describe('scrubJsonMembers', () => {
  it('scrubs serialised bindings and answers clean ones unchanged', () => {
    expect(scrubJsonMembers(',"pid":1,"reqId":"req-1"')).toBe(',"pid":1,"reqId":"req-1"');
    expect(scrubJsonMembers(`,"token":"abc","phone2":"${PHONE}"`)).toBe(
      ',"token":"[redacted]","phone2":"[redacted]"',
    );
    expect(scrubJsonMembers(`,"who":"${PHONE}"`)).toBe(',"who":"[redacted:phone]"');
  });
});

describe('request loggers', () => {
  it('skip scrubbing only what differs from a clean parent by a generated request id', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ ...loggerOptions('info'), base: { pid: 1, hostname: `h${PHONE}` } }, stream);
    // the parent's own bindings hold a phone-like number: every request child is scrubbed
    log.child({ reqId: 'req-1' }).info('one');
    log.child({ reqId: 'req-2' }).info('two');
    const parent = log.child({ module: 'x' });
    parent.child({ reqId: 'req-3' }).info('three');
    parent.child({ reqId: 'req-4' }).info('four');
    // a clean parent's request child, then one that binds more than its id, then a child of a request child
    parent.child({ reqId: 'req-5', token: JWT }).info('five');
    parent.child({ reqId: 'req-6' }).child({ who: PHONE }).info('six');
    parent.child({ reqId: `req-${PHONE}` }).info('seven');
    expect(lines).toHaveLength(7);
    expect(clean(lines.join(''))).toEqual([]);
    expect(lines[3]).toContain('"reqId":"req-4"');
  });
});

describe('the server log', () => {
  it('passes every line through the scrubber, Fastify’s own error lines included', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions('debug'), stream } });
    app.get('/boom', async () => {
      throw driverError();
    });
    await app.ready();
    const res = await app.inject({
      url: `/boom?password=Secret%231&phone=${PHONE}`,
      headers: { authorization: `Bearer ${JWT}` },
    });
    expect(res.statusCode).toBe(500);
    app.log.error(driverError());
    app.log.error({ err: driverError() });
    app.log.warn({ body: { oldPassword: MD5, idCard: ID18 } }, 'saving %s failed: %o', ID15, {
      password: 'Secret#1',
    });
    app.log.child({ token: JWT, who: PHONE }).info(`hash ${ARGON}`);
    await app.close();
    const text = lines.join('');
    // the lines are there: an empty log would pass the next check
    expect(lines.length).toBeGreaterThanOrEqual(7);
    expect(text).toContain('"url":"/boom?password=***&phone=***"');
    expect(text.match(/Failed query: insert into \\"blade_user\\"/g)?.length).toBeGreaterThanOrEqual(6);
    expect(clean(text)).toEqual([]);
    for (const line of lines) JSON.parse(line);
  });
});
