import { describe, expect, it } from 'vitest';
import { TableChanges, type WriteSession } from './changes';

describe('TableChanges', () => {
  it('watches writes and transaction boundaries only (reads run unwatched)', () => {
    for (const text of ['select 1', '  SELECT "id" from "t"', 'show server_version'])
      expect(TableChanges.notes(text), text).toBe(false);
    for (const text of [
      'insert into "t" values (1)',
      'UPDATE t set a = 1',
      'delete from t',
      'with x as (select 1) insert into t select * from x',
      'begin',
      'COMMIT',
      'rollback',
    ])
      expect(TableChanges.notes(text), text).toBe(true);
  });

  it('moves a table written outside a transaction at once, and one written inside only at its commit', () => {
    const changes = new TableChanges();
    const session: WriteSession = { inTransaction: false, written: new Set() };
    const before = changes.stamp(['a', 'b']);
    changes.noteStatement(session, 'update "a" set x = 1');
    const afterA = changes.stamp(['a', 'b']);
    expect(afterA).not.toBe(before);
    changes.noteStatement(session, 'begin');
    changes.noteStatement(session, 'insert into "b" (x) values (1)');
    expect(changes.stamp(['a', 'b'])).toBe(afterA);
    changes.noteStatement(session, 'commit');
    expect(changes.stamp(['a', 'b'])).not.toBe(afterA);
  });

  it('a `with` moves the tables it writes, and only those; one that only reads moves nothing', () => {
    const changes = new TableChanges();
    const heard: string[] = [];
    changes.onChange((t) => heard.push(t));
    const session: WriteSession = { inTransaction: false, written: new Set() };
    const before = changes.stamp(['flow_history']);
    const roles = changes.stamp(['blade_role']);
    // a workflow step's statement (flow/service/tasks.ts)
    changes.noteStatement(
      session,
      `with step as (update flow_history set end_time = now() where id = $1 returning id)
       insert into "flow_history" (id) select $2 where not exists (select 1 from step)`,
    );
    expect(heard).toEqual(['flow_history']);
    expect(changes.stamp(['flow_history'])).not.toBe(before);
    // nothing else moved: the grants, scopes and list answers of other tables are kept
    expect(changes.stamp(['blade_role'])).toBe(roles);
    heard.length = 0;
    changes.noteStatement(session, 'with recursive t as (select 1) select * from t');
    expect(heard).toEqual([]);
    // inside a transaction: at its commit, each table once
    changes.noteStatement(session, 'begin');
    changes.noteStatement(
      session,
      'with gone as (delete from "a" returning 1) insert into b select 1 from gone',
    );
    expect(heard).toEqual([]);
    changes.noteStatement(session, 'commit');
    expect(heard.sort()).toEqual(['a', 'b']);
  });
});
