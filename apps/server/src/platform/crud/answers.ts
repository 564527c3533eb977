/**
 * Whole answers of list pages, serialised, for a few seconds — and only while none of the tables they read
 * has changed (platform/db/changes.ts: every server hears of every commit). Many staff opening the same list
 * cost one query and one serialisation every few seconds; a row saved anywhere, by any server or at a psql
 * prompt, is in the very next answer.
 *
 * The key is the caller's part in the answer (tenant, roles, user, dept: whatever the data scope reads),
 * the language (of `msg`) and the request's path and query. The tables are those named by the statements
 * that make the answer, read off their text before they run; their versions are taken then too, so a commit
 * that lands while they run leaves the answer stale at once. The few seconds bound what is not a table
 * of the answer's own statements: the access caches (grants, scopes, dept trees) and the page totals, which
 * keep their own seconds; a grant changed on this server drops the answers at once (dropAccessCaches).
 * While changes cannot be heard (READ_CACHE=false, or the listening connection lost) nothing is kept.
 */
import { type Table as AnyTable, getTableName } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../auth/context';
import { changesOf, type TableChanges, tablesRead } from '../db/changes';
import { ok } from '../http/envelope';

const MAX_AGE_MS = 3_000;
/** how old an unchanged answer may be while its successor is made */
const STALE_MAX_MS = 2 * MAX_AGE_MS;
/** what the kept answers may hold at most (a page of 200 wide rows is a few hundred KB) */
const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  at: number;
  tables: string[];
  stamp: string;
  body: Promise<string>;
  /** the body's length once it is made */
  bytes: number;
  /** its body is made (an answer past its age is answered only then) */
  made: boolean;
  /** the next answer being made while this one, past its age, is still answered */
  next?: Promise<void>;
}
/** in the order they were made: the oldest first, so expired ones are dropped from the front */
const answers = new Map<string, Entry>();
let bytesKept = 0;

function drop(key: string, entry: Entry) {
  if (answers.get(key) !== entry) return;
  answers.delete(key);
  bytesKept -= entry.bytes;
}

/** Drops what has expired, and the oldest while over the byte budget. */
function sweep(now: number) {
  for (const [key, entry] of answers) {
    if (now - entry.at < STALE_MAX_MS && bytesKept <= MAX_BYTES) break;
    drop(key, entry);
  }
}

export interface ListAnswer {
  /** the text of the statements the answer is made of: their tables are its tables */
  reads: string[];
  /** tables read besides (the labels of referenced rows) */
  alsoReads?: string[];
  /** runs them (again: it is called for every answer made from this) and makes the envelope's data */
  data(): Promise<unknown>;
}

/**
 * Made answers (their statements built and prepared), per key, for as long as the access decisions built into
 * them are trusted anyway (the access caches keep theirs for 5 s; a grant here drops these at once): a
 * request that is not answered from memory still skips building its SQL.
 */
const made = new Map<string, { at: number; answer: Promise<ListAnswer> }>();
const MAX_MADE = 5_000;

function madeAnswer(key: string, now: number, make: () => Promise<ListAnswer>): Promise<ListAnswer> {
  const hit = made.get(key);
  if (hit && now - hit.at < MAX_AGE_MS) return hit.answer;
  if (made.size >= MAX_MADE) made.clear();
  const answer = make();
  made.set(key, { at: now, answer });
  answer.catch(() => made.delete(key));
  return answer;
}

/** Makes the kept entry of an answer: its tables and their versions, then its body (the statements run). */
async function makeEntry(
  req: FastifyRequest,
  changes: TableChanges,
  answer: ListAnswer,
  now: number,
): Promise<Entry> {
  const tables = [...new Set([...answer.reads.flatMap(tablesRead), ...(answer.alsoReads ?? [])])];
  // the versions before the statements run: a commit during them makes this answer stale at once
  const stamp = changes.stamp(tables);
  return {
    at: now,
    tables,
    stamp,
    body: answer.data().then((data) => JSON.stringify(ok(req, data))),
    bytes: 0,
    made: false,
  };
}

/** Keeps `entry` under `key` (in place of what was there) once its body is made; drops it if that fails. */
function keep(key: string, entry: Entry, replacing?: Entry) {
  entry.body.then(
    (body) => {
      const now = answers.get(key);
      if (now !== entry && now !== replacing) return; // forgotten or replaced meanwhile
      if (now && now !== entry) drop(key, now);
      if (!answers.has(key)) answers.set(key, entry);
      entry.made = true;
      entry.bytes = body.length * 2;
      bytesKept += entry.bytes;
      sweep(Date.now());
    },
    () => drop(key, entry),
  );
}

/**
 * Answers a list request from memory when nothing it read has changed, else makes it with `make()` (which
 * builds the statements; they run in `data()`), remembers it and answers it. An answer past its few
 * seconds whose tables are unchanged is still answered, once, while the next one is made beside it (up to
 * twice its age): a page many people keep asking for never makes one of them wait for its statements.
 */
export async function answerList(
  req: FastifyRequest,
  reply: FastifyReply,
  db: object,
  ctx: RequestContext,
  make: () => Promise<ListAnswer>,
) {
  const changes = changesOf(db);
  const key = `${ctx.tenantId}|${ctx.roleIds.join(',')}|${ctx.userId}|${ctx.deptId}|${req.lang}|${req.url}`;
  const now = Date.now();
  if (!changes?.listening) return ok(req, await (await madeAnswer(key, now, make)).data());
  let entry = answers.get(key);
  const unchanged = entry !== undefined && entry.stamp === changes.stamp(entry.tables);
  if (entry && unchanged && now - entry.at >= MAX_AGE_MS && now - entry.at < STALE_MAX_MS && entry.made) {
    if (!entry.next) {
      const kept = entry;
      kept.next = madeAnswer(key, now, make)
        .then((answer) => makeEntry(req, changes, answer, now))
        .then((next) => keep(key, next, kept))
        .catch(() => {});
    }
  } else if (!entry || !unchanged || now - entry.at >= MAX_AGE_MS) {
    const fresh = await makeEntry(req, changes, await madeAnswer(key, now, make), now);
    const old = answers.get(key);
    if (old) drop(key, old);
    answers.set(key, fresh);
    keep(key, fresh);
    entry = fresh;
  }
  return reply.type('application/json; charset=utf-8').send(await (entry as Entry).body);
}

/** Forgets every answer (grants or scopes changed on this server). */
export function forgetAnswers() {
  answers.clear();
  made.clear();
  bytesKept = 0;
}

/**
 * A figure many people watch at once (an overview, a yield, a chart's history), kept as a list's answer is:
 * while none of `tables` (the tables `data` reads, named by hand since its statements are built as it
 * runs) has changed, and a few seconds at most (the figures that depend on the clock, such as a device
 * seen online, move by no more). Fifty people looking at the same overview cost about what one does; a
 * new batch of readings, a station edited, is in the next answer. The caller checks the permission first.
 */
export function answerKept(
  req: FastifyRequest,
  reply: FastifyReply,
  db: object,
  ctx: RequestContext,
  tables: readonly (AnyTable | string)[],
  data: () => Promise<unknown>,
) {
  const alsoReads = tables.map((t) => (typeof t === 'string' ? t : getTableName(t)));
  return answerList(req, reply, db, ctx, async () => ({ reads: [], alsoReads, data }));
}
