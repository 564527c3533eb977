import { describe, expect, it } from 'vitest';
import { TableChanges, type WriteSession } from './changes';

const session = (): WriteSession => ({ inTransaction: false, written: new Set() });

describe('what a connection’s statements tell of changed tables', () => {
  it('a write outside a transaction moves its table at once, and only that table', () => {
    const c = new TableChanges();
    const before = { user: c.stamp(['blade_user']), role: c.stamp(['blade_role']) };
    c.noteStatement(session(), 'update "blade_user" set "name" = $1 where "id" = $2');
    expect(c.stamp(['blade_user'])).not.toBe(before.user);
    expect(c.stamp(['blade_role'])).toBe(before.role);
  });

  it('writes in a transaction move their tables when it commits, not before; a rollback moves nothing', () => {
    const c = new TableChanges();
    const s = session();
    const before = c.stamp(['blade_user', 'blade_user_role']);
    c.noteStatement(s, 'begin');
    c.noteStatement(s, 'insert into "blade_user" ("id") values ($1)');
    c.noteStatement(s, 'delete from "blade_user_role" where "user_id" = $1');
    c.noteStatement(s, 'savepoint sp1');
    c.noteStatement(s, 'rollback to savepoint sp1'); // the transaction goes on
    expect(c.stamp(['blade_user', 'blade_user_role'])).toBe(before);
    c.noteStatement(s, 'commit');
    const after = c.stamp(['blade_user', 'blade_user_role']);
    expect(after).not.toBe(before);

    c.noteStatement(s, 'begin');
    c.noteStatement(s, 'update "blade_user" set "name" = $1');
    c.noteStatement(s, 'rollback');
    expect(c.stamp(['blade_user', 'blade_user_role'])).toBe(after);
  });

  it('a write whose table cannot be read off its text moves everything', () => {
    const c = new TableChanges();
    const before = c.stamp(['hope_villager']);
    c.noteStatement(session(), 'with moved as (delete from a returning *) insert into b select * from moved');
    expect(c.stamp(['hope_villager'])).not.toBe(before);
  });

  it('reads and other statements move nothing', () => {
    const c = new TableChanges();
    const before = c.stamp(['blade_user']);
    for (const text of ['select * from "blade_user"', 'LISTEN x', 'do $$ begin end $$', 'set x = 1'])
      c.noteStatement(session(), text);
    expect(c.stamp(['blade_user'])).toBe(before);
  });
});
