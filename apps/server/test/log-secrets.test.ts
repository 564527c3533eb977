import { idCardCheckDigit } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../src/seed/system';
import { USER_SHEET_HEADER, uploadFile, xlsxOf } from './fixtures';
import { auth, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/**
 * Security issue 12: failing writes of every kind must not put a password, a password hash, an md5, a
 * token, an ID-card number or a phone number in the server log. Every line is captured at level debug.
 */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer({ LOG_LEVEL: 'debug' });
  admin = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const PASSWORDS = ['Dup#Pass-2026', 'Wrong#Old-2026', 'New#Pass-2026', 'Wrong#Sign-2026', 'admin'];
const PHONES = ['13912345670', '15887654321', '18600001111'];
const ID_CARDS: string[] = [];

/** A valid ID number for a birth date and sex (odd 17th digit: male), made distinct by n. */
function idFor(birth: string, n: number, region = '430181') {
  const first = `${region}${birth.replaceAll('-', '')}${String((n % 100) * 10 + 1).padStart(3, '0')}`;
  const id = first + idCardCheckDigit(first);
  ID_CARDS.push(id);
  return id;
}

const call = (url: string, payload?: object, headers = auth(admin)) =>
  s.app.inject({ method: 'POST', url, headers, payload });

/**
 * Sends the same write several times at once until the database refuses one (a duplicate key past the
 * server's own check: 409, logged with the driver's error); answers every status seen.
 */
async function raceToFailure(send: (attempt: number) => Promise<LightMyRequestResponse>) {
  const seen = new Set<number>();
  for (let attempt = 0; attempt < 8 && !seen.has(409); attempt++) {
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(attempt)));
    for (const a of answers) seen.add(a.statusCode);
  }
  return seen;
}

const workbook = xlsxOf;
const upload = (url: string, buf: Buffer) => uploadFile(s, admin, url, buf);

describe('the server log during failing writes', () => {
  it('shows the failures but no password, hash, md5, token, ID-card or phone number', async () => {
    // users: the database refuses an insert that passed the server's checks, as it refuses the second of two
    // administrators creating the same account at once (a unique violation); the statement's parameters
    // hold the argon2 hash of the new password and the phone number. A trigger stands in for the other
    // administrator, so the refusal happens every run, not only when the race is lost.
    const db = s.database.db;
    await db.execute(
      sql.raw(`create or replace function refuse_racer() returns trigger language plpgsql as $$
        begin
          if new.account = 'racer' then
            raise exception using errcode = 'unique_violation',
              message = 'duplicate key value violates unique constraint "blade_user_account_uq"';
          end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql.raw(
        'create trigger refuse_racer before insert on blade_user for each row execute function refuse_racer()',
      ),
    );
    const userRace = await call('/api/dfem-user/submit', {
      account: 'racer',
      password: md5Hex(PASSWORDS[0]),
      realName: '赛跑者',
      phone: PHONES[0],
      roleId: SEED.userRoleId,
      deptId: SEED.rootDeptId,
    });
    await db.execute(sql.raw('drop trigger refuse_racer on blade_user'));
    expect(userRace.statusCode, 'the database refused the user insert').toBe(409);

    // a password change with a wrong old password; a sign-in with a wrong password
    const change = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-user/update-password?${new URLSearchParams({
        oldPassword: md5Hex(PASSWORDS[1]),
        newPassword: md5Hex(PASSWORDS[2]),
        newPassword1: md5Hex(PASSWORDS[2]),
      })}`,
      headers: auth(admin),
    });
    expect(change.statusCode).toBe(400);
    const signInBad = await tokenRequest(s, {
      grant_type: 'password',
      username: 'admin',
      password: md5Hex(PASSWORDS[3]),
    });
    expect(signInBad.statusCode).toBeGreaterThanOrEqual(400);

    // villagers: the same ID number several times at once; the unique index refuses an insert that passed
    // the server's check, or (PGlite runs one statement at a time) the check refuses it
    const villagerRace = await raceToFailure((attempt) =>
      call(`${API}/villager/submit`, {
        name: '测试村民',
        sex: '1',
        idCard: ID_CARDS[attempt] ?? idFor('1980-05-12', attempt),
        phone: PHONES[1],
        householdNo: 'T0001',
        relation: '1',
        villageGroup: '1',
      }),
    );
    expect([...villagerRace].some((c) => c === 409 || c === 400)).toBe(true);

    // a bearer token that is not valid (forged signature), in the header and in the query
    const forged = await new SignJWT({ user_id: '1', tenant_id: '000000', token_type: 'access_token' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-server-secret-0123456789-0123456789'));
    const bad = await s.app.inject({
      method: 'GET',
      url: `/api/dfem-user/page?access_token=${forged}`,
      headers: { 'blade-auth': `bearer ${forged}`, authorization: `Bearer ${forged}` },
    });
    expect(bad.statusCode).toBe(401);

    // imports that fail: villagers with a bad row, and users whose role does not exist
    const template = await s.app.inject({
      method: 'GET',
      url: `${API}/villager/excel/template`,
      headers: auth(admin),
    });
    const twb = new ExcelJS.Workbook();
    await twb.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const header = (twb.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    const row = header.map((h) =>
      h.includes('身份证')
        ? idFor('1990-03-07', 7)
        : h.includes('电话')
          ? PHONES[2]
          : h.includes('性别')
            ? '火星'
            : '',
    );
    const villagerImport = await upload(`${API}/villager/excel/import`, await workbook(header, [row]));
    expect(villagerImport.statusCode).toBe(400);
    const userImport = await upload(
      '/api/dfem-user/import-user',
      await workbook(USER_SHEET_HEADER, [
        ['importee', '导入', '', PHONES[2], '', '男', '', 'no-such-role', 'no-such-dept'],
      ]),
    );
    expect(userImport.statusCode).toBe(400);

    const log = s.logs.join('');
    // the log did capture the failures: an empty or partial log cannot pass the checks below
    for (const url of [
      '/api/dfem-user/submit',
      '/api/dfem-user/update-password',
      '/api/dfem-auth/oauth/token',
      `${API}/villager/submit`,
      '/api/dfem-user/page',
      `${API}/villager/excel/import`,
      '/api/dfem-user/import-user',
    ])
      expect(log, url).toContain(`"url":"${url}`);
    const failed = s.logs.filter((l) => l.includes('"msg":"a unique value was taken by a concurrent write"'));
    expect(failed.length).toBeGreaterThanOrEqual(villagerRace.has(409) ? 2 : 1);
    expect(failed.join('')).toContain('Failed query: insert into');
    expect(failed.join('')).toContain('"code":"23505"');
    expect(log).toContain('"statusCode":401');

    const leaks = [
      // the seeded administrator's password is the word `admin`, also its account name: only its md5 here
      ...PASSWORDS.filter((p) => p !== 'admin'),
      ...PASSWORDS.map(md5Hex),
      ...PHONES,
      ...ID_CARDS,
      '$argon2',
      forged,
      admin,
    ].filter((x) => log.includes(x));
    expect(leaks).toEqual([]);
    expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(log).not.toMatch(/(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/i);
  });
});

/**
 * Issue 31 item 4, as the attacker did it: a live access token (and a refresh token, a password in clear and
 * as md5) sent in every part of a request a client can fill — query (`?blade-auth=`, `?access_token=`, on
 * routes that do not take them), headers, JSON body, form body, multipart field, the path, a sign-in's
 * account, the browser's error report — never appears in any stored log (blade_log_api, blade_log_error,
 * blade_log_usual) nor in the server log.
 */
describe('a token or password in any part of a request', () => {
  it('is in no stored log and not in the server log', async () => {
    const signedIn = await signIn(s);
    const token = signedIn.access_token;
    const refresh = signedIn.refresh_token;
    const plain = 'Plain#Secret-2031';
    const md5 = md5Hex(plain);
    const inject = (
      method: 'GET' | 'POST',
      url: string,
      opts: { headers?: Record<string, string>; payload?: string | object | FormData } = {},
    ) => s.app.inject({ method, url, headers: opts.headers ?? {}, payload: opts.payload as string });
    const q = (o: Record<string, string>) => new URLSearchParams(o).toString();
    const codes: Record<string, number> = {};
    const send = async (name: string, res: Promise<LightMyRequestResponse>) => {
      codes[name] = (await res).statusCode;
    };

    // the attacker's request: the token in the query of a route that does not take it
    await send(
      'query blade-auth',
      inject('POST', `/api/dfem-user/submit?${q({ 'blade-auth': `bearer ${token}` })}`),
    );
    await send('query bare', inject('POST', `/api/dfem-user/submit?${q({ 'Blade-Auth': token })}`));
    await send(
      'query others',
      inject(
        'POST',
        `/api/dfem-user/remove?${q({ ids: '1', access_token: token, refresh_token: refresh, password: plain, pwd: md5, auth: token })}`,
        {
          headers: auth(token),
        },
      ),
    );
    // a read: not in the audit log, but in the server log's request line
    await send(
      'query on a read',
      inject('GET', `/api/dfem-user/page?${q({ 'blade-auth': `bearer ${token}`, access_token: token })}`),
    );
    await send(
      'query on a download',
      inject('GET', `/api/dfem-user/export-user?${q({ 'blade-auth': `bearer ${token}`, password: plain })}`),
    );
    // headers: the token where it belongs, and where it does not (the user agent is stored)
    await send(
      'headers',
      inject('POST', '/api/dfem-user/submit', {
        headers: {
          ...auth(token),
          authorization: `Bearer ${refresh}`,
          'user-agent': `Mozilla/5.0 blade-auth=${token} password=${plain}`,
          'captcha-code': plain,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({
          account: 'x',
          password: md5,
          token,
          refresh_token: refresh,
          oldPassword: plain,
        }),
      }),
    );
    // a JSON body a route refuses, and one with a malformed syntax
    await send(
      'json body',
      inject('POST', '/api/dfem-user/update-password', {
        headers: { ...auth(token), 'content-type': 'application/json' },
        payload: JSON.stringify({ oldPassword: md5, newPassword: plain, token }),
      }),
    );
    await send(
      'broken json',
      inject('POST', '/api/dfem-user/submit', {
        headers: { ...auth(token), 'content-type': 'application/json' },
        payload: `{"password":"${plain}","token":"${token}"`,
      }),
    );
    // a form body, signed in and not
    const form = q({ password: plain, 'blade-auth': `bearer ${token}`, access_token: token });
    for (const headers of [{}, auth(token)])
      await send(
        `form body${Object.keys(headers).length ? ' signed in' : ''}`,
        inject('POST', '/api/dfem-user/submit', {
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: form,
        }),
      );
    // multipart fields beside a file, signed in and not
    for (const headers of [{}, auth(token)]) {
      const multipart = new FormData();
      multipart.append('password', plain);
      multipart.append('blade-auth', `bearer ${token}`);
      multipart.append('access_token', token);
      multipart.append(
        'file',
        new Blob([new Uint8Array(await workbook(USER_SHEET_HEADER, []))]),
        `${token}.xlsx`,
      );
      await send(
        `multipart${Object.keys(headers).length ? ' signed in' : ''}`,
        s.app.inject({ method: 'POST', url: '/api/dfem-user/import-user', headers, payload: multipart }),
      );
    }
    // the path itself
    await send('path', inject('POST', `/api/dfem-user/${token}`, { headers: auth(token) }));
    await send('path password', inject('POST', `/api/dfem-user/password=${plain}`, { headers: auth(token) }));
    // sign-in: the token in the query, a password in the wrong field, a token as the account
    await send(
      'sign-in query',
      tokenRequest(s, {
        grant_type: 'password',
        username: 'admin',
        password: md5Hex('admin'),
        access_token: token,
      }),
    );
    await send(
      'sign-in wrong field',
      tokenRequest(s, {
        grant_type: 'password',
        username: token.slice(0, 45),
        password: md5,
        refresh_token: refresh,
      }),
    );
    await send('refresh', tokenRequest(s, { grant_type: 'refresh_token', refresh_token: refresh }));
    // the browser's error report, every field filled with what a careless page could put there
    await send(
      'error report',
      inject('POST', '/api/dfem-log/error/report', {
        headers: auth(token),
        payload: [
          {
            type: `Error ${token.slice(0, 240)}`,
            message: `request failed: Blade-Auth: bearer ${token}`,
            stack: `Error: password=${plain}\n    at f (https://console.example/x.js?access_token=${token}:1:2)`,
            info: `bearer ${token.slice(0, 240)}`,
            url: `https://console.example/system/user?blade-auth=bearer%20${token}&password=${plain}`,
            time: '2026-01-15 10:30:00',
          },
        ],
      }),
    );
    // the attacker's request was refused, as every other that carried its token in the wrong place
    console.log('answers:', codes);
    expect(codes['query blade-auth']).toBe(401);
    expect(codes['query bare']).toBe(401);
    expect(codes['form body']).toBe(401);
    expect(codes['error report']).toBe(200);

    await s.app.auditLog.flush();
    const db = s.database.db;
    const stored: Record<string, string> = {};
    for (const table of ['blade_log_api', 'blade_log_error', 'blade_log_usual']) {
      const { rows } = (await db.execute(sql.raw(`select * from ${table}`))) as unknown as {
        rows: unknown[];
      };
      stored[table] = JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    }
    // the requests were recorded (an empty log cannot pass the checks below)
    expect(stored.blade_log_api).toContain('/api/dfem-user/submit');
    expect(stored.blade_log_api).toContain('/api/dfem-user/import-user');
    expect(stored.blade_log_api).toContain('"status_code":401');
    expect(stored.blade_log_error).toContain('request failed');
    expect(stored.blade_log_usual).toContain('signed in');

    const secrets = {
      token,
      refresh,
      plain,
      md5,
      tokenSignature: token.split('.')[2],
      refreshSignature: refresh.split('.')[2],
    };
    for (const [where, text] of [...Object.entries(stored), ['server log', s.logs.join('')]]) {
      const leaks = Object.entries(secrets)
        .filter(([, v]) => text.includes(v) || text.includes(encodeURIComponent(v)))
        .map(([k]) => k);
      expect(leaks, where).toEqual([]);
      // no part of a token either (a clipped one starts with its header)
      expect(text, where).not.toMatch(/eyJ[\w-]{8,}/);
    }
  });
});
