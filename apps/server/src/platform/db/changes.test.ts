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
});
