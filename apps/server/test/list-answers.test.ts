import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/platform/db';
import { createServer, type Server } from '../src/server';
import {
  auth,
  dbKind,
  notificationsSettled,
  signIn,
  startTestServer,
  type TestServer,
  whileDeaf,
} from './harness';

/**
 * List answers are kept for a few seconds while none of their tables changes (platform/crud/answers.ts,
 * platform/db/changes.ts). What must hold: a repeated request is answered from memory; any change —
 * through the API, through raw SQL, on another connection, through another server instance — is in the
 * very next answer that can know of it.
 */
const PARAMS = '/api/dfem-system/param/list?current=1&size=50';
const USERS = '/api/dfem-user/page?current=1&size=50';

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('list answers', () => {
  let server: TestServer;
  let token: string;
  const exec = (text: string) => server.database.db.execute(sql.raw(text));
  const list = async (s: Server, url: string) => {
    const res = await s.app.inject({ method: 'GET', url, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return res.json().data.records as Record<string, string>[];
  };
  const paramValues = async (s: Server = server) =>
    (await list(s, PARAMS)).map((r) => `${r.paramKey}=${r.paramValue}`);
  const settle = notificationsSettled;
  const deaf = (body: () => Promise<void>) => whileDeaf(server, body);

  beforeAll(async () => {
    server = await startTestServer();
    token = (await signIn(server)).access_token;
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/dfem-system/param/submit',
      headers: auth(token),
      payload: { paramName: '缓存测试', paramKey: 'cache.test', paramValue: 'one' },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a repeated request is answered from memory while nothing is heard of its tables', async () => {
    expect(server.database.changes.listening).toBe(true);
    await settle();
    expect(await paramValues()).toContain('cache.test=one');
    await deaf(async () => {
      await exec(`update blade_param set param_value = 'unheard' where param_key = 'cache.test'`);
      expect(await paramValues()).toContain('cache.test=one');
    });
    // what was missed is found once anything is heard of the table
    server.database.changes.changed('blade_param');
    expect(await paramValues()).toContain('cache.test=unheard');
  });

  it('a row saved through the API is in the next answer', async () => {
    expect(await paramValues()).not.toContain('cache.api=x');
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/dfem-system/param/submit',
      headers: auth(token),
      payload: { paramName: '接口保存', paramKey: 'cache.api', paramValue: 'x' },
    });
    expect(res.statusCode).toBe(200);
    expect(await paramValues()).toContain('cache.api=x');
  });

  it('a change written with raw SQL through the server’s own database is in the next answer', async () => {
    await paramValues();
    await exec(`update blade_param set param_value = 'raw' where param_key = 'cache.test'`);
    expect(await paramValues()).toContain('cache.test=raw');
  });

  it('the users page follows a change of a table it joins (a role renamed)', async () => {
    const roleNames = async () => (await list(server, USERS)).find((u) => u.account === 'admin')?.roleName;
    expect(await roleNames()).toBe('超级管理员');
    await exec(`update blade_role set role_name = '平台管理员' where role_alias = 'administrator'`);
    expect(await roleNames()).toBe('平台管理员');
    await exec(`update blade_role set role_name = '超级管理员' where role_alias = 'administrator'`);
    expect(await roleNames()).toBe('超级管理员');
  });

  it('a change of another table leaves the answer in memory', async () => {
    await settle();
    await paramValues();
    await deaf(async () => {
      await exec(`update blade_param set param_value = 'quiet' where param_key = 'cache.test'`);
    });
    await exec(`update blade_post set remark = 'moved' where 1 = 0`); // another table, a statement heard
    expect(await paramValues()).toContain('cache.test=raw');
    server.database.changes.changed('blade_param');
    expect(await paramValues()).toContain('cache.test=quiet');
  });

  it('past its few seconds an unchanged answer is answered once more while the next is made', async () => {
    await settle();
    expect(await paramValues()).toContain('cache.test=quiet');
    await deaf(async () => {
      await exec(`update blade_param set param_value = 'aged' where param_key = 'cache.test'`);
      await new Promise((r) => setTimeout(r, 3_100));
      // from memory, without waiting for its statements: the next answer is made beside it
      expect(await paramValues()).toContain('cache.test=quiet');
      expect(await eventually(paramValues, (v) => v.includes('cache.test=aged'))).toContain(
        'cache.test=aged',
      );
    });
  });

  it('past its few seconds an answer whose table changed is never answered', async () => {
    await settle();
    expect(await paramValues()).toContain('cache.test=aged');
    await new Promise((r) => setTimeout(r, 3_100));
    await exec(`update blade_param set param_value = 'fresh' where param_key = 'cache.test'`);
    expect(await paramValues()).toContain('cache.test=fresh');
  });

  it('nothing is kept while changes cannot be heard', async () => {
    const changes = server.database.changes;
    await paramValues();
    changes.listening = false;
    try {
      await deaf(async () => {
        await exec(`update blade_param set param_value = 'deaf' where param_key = 'cache.test'`);
        expect(await paramValues()).toContain('cache.test=deaf');
      });
    } finally {
      changes.listening = true;
      changes.changedAll();
    }
  });

  describe.runIf(dbKind === 'postgres')('on PostgreSQL', () => {
    it('a change made on another connection (a psql prompt) reaches the next answers', async () => {
      await paramValues();
      const other = new pg.Client({ connectionString: server.config.DATABASE_URL });
      await other.connect();
      try {
        await other.query(`update blade_param set param_value = 'psql' where param_key = 'cache.test'`);
      } finally {
        await other.end();
      }
      expect(await eventually(paramValues, (v) => v.includes('cache.test=psql'))).toContain(
        'cache.test=psql',
      );
    });

    it('what a transaction writes is answered right after it commits', async () => {
      await paramValues();
      await server.database.db.transaction(async (tx) => {
        await tx.execute(sql`update blade_param set param_value = 'in-tx' where param_key = 'cache.test'`);
        // another connection of the pool still sees the committed row, and the answer may keep it
        expect(await paramValues()).toContain('cache.test=psql');
      });
      expect(await paramValues()).toContain('cache.test=in-tx');
    });

    describe('two server instances on one database', () => {
      let second: Server;
      let database: Database;
      beforeAll(async () => {
        database = await openDatabase({ url: server.config.DATABASE_URL, dataDir: 'memory://', poolSize: 2 });
        await database.migrate();
        second = await createServer(server.config, { database, logger: false, kvPrefix: 'test:second:' });
        await second.app.ready();
      });
      afterAll(async () => {
        await second?.close();
        await database?.close();
      });

      it('a row saved on one is listed by the other', async () => {
        const keys = async () => (await paramValues(second)).map((v) => v.split('=')[0]);
        expect(await keys()).not.toContain('cache.second');
        expect(await keys()).not.toContain('cache.second'); // now kept there
        const res = await server.app.inject({
          method: 'POST',
          url: '/api/dfem-system/param/submit',
          headers: auth(token),
          payload: { paramName: '第二台', paramKey: 'cache.second', paramValue: 'x' },
        });
        expect(res.statusCode).toBe(200);
        expect(await eventually(keys, (k) => k.includes('cache.second'))).toContain('cache.second');
      });
    });
  });
});
