import { isId } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { ApiError } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { resolve } from './expressions';
import { ACTION_NAMES } from './runtime/inspect';
import type { ActionRequest } from './runtime/recorder';
import { type flowInstance, flowNotice } from './tables';

/**
 * The actions a service-type task (service, send, business-rule task; a script task without a script) may
 * run, named by `flowable:type` / `camunda:type` (or any prefix's `type` / `action` attribute) with their
 * `flowable:field` / `camunda:field` (or `camunda:property`) values — never a class, a delegate or a script:
 * - `notice`: a notice to users (`to`: user ids or `${variable}`s, comma separated; `title`)
 * - `variables`: sets process variables (every field is one: its name, its value or `${expression}`)
 * - `http`: calls an address on the allow-list (`FLOW_HTTP_ALLOW`; `url`, `method` GET or POST, `body`);
 *   the answer's status becomes the variable named by `resultVariable` (default `httpStatus`). The address
 *   is checked, and the request written down (prepareHttp), in the transaction that reaches the task; the
 *   call itself (sendHttp) is made after that transaction commits, and the instance continues in a new one
 *   (service/outbox.ts, on the platform outbox): no transaction, and no lock on the instance, is held while a slow
 *   endpoint answers.
 * - an action a business module registers (registerFlowAction): what its own process does to its own rows
 *   (relief: a monitored household's stage), in the transaction that reaches the task.
 */

/** A module's action: its fields resolved against the instance's variables; answers variables it sets. */
export type FlowAction = (
  tx: Db,
  instance: typeof flowInstance.$inferSelect,
  field: (name: string) => unknown,
) => Promise<Record<string, unknown>>;

const moduleActions = new Map<string, FlowAction>();

/** Whether a diagram names a module's action (its instances need the business record they act on). */
export function actsOnBusinessRecords(xml: string): boolean {
  for (const name of moduleActions.keys())
    if (new RegExp(`:(?:type|action)="${name}"`).test(xml)) return true;
  return false;
}

/** Offers an action to service tasks by name (deployments refuse a name nobody offers). */
export function registerFlowAction(name: string, run: FlowAction) {
  if (moduleActions.has(name) || ACTION_NAMES.includes(name)) throw new Error(`flow action ${name} exists`);
  moduleActions.set(name, run);
  ACTION_NAMES.push(name);
}

/** An allowed address: an origin (scheme, host, port) and the path below which calls may go. */
interface AllowedPrefix {
  origin: string;
  path: string;
}

/** An http(s) address as the URL parser reads it; null for anything else (another scheme, no address). */
function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The allow-list's entries, parsed: `https://api.example.com/hooks/` allows that origin (scheme, host and
 * port as the URL parser normalises them: `:443` written or not) and the paths at or below `/hooks/`. An entry that is no http(s) URL allows
 * nothing (the configuration refuses one at start).
 */
export function parseHttpAllow(allow: string): AllowedPrefix[] {
  return allow
    .split(',')
    .map((p) => parseHttpUrl(p.trim()))
    .filter((u): u is URL => u !== null)
    .map((u) => ({ origin: u.origin, path: u.pathname }));
}

/**
 * Whether `url` is on the allow-list: its parsed origin is an entry's exactly — never a text prefix, so
 * `http://a.example.com.evil/` or `http://a.example.com@evil/` is not `http://a.example.com` — and its path
 * (dot segments resolved by the parser) is the entry's or below it, segment by segment (`/hooks` allows
 * `/hooks/x`, not `/hooksx`). A URL with credentials in it is never allowed.
 */
export function httpAllowed(allow: readonly AllowedPrefix[], url: string): boolean {
  const u = parseHttpUrl(url);
  if (!u || u.username || u.password) return false;
  return allow.some(
    (p) =>
      u.origin === p.origin &&
      (u.pathname === p.path || u.pathname.startsWith(p.path.endsWith('/') ? p.path : `${p.path}/`)),
  );
}

let httpAllow: AllowedPrefix[] = [];
/** The addresses an `http` action may call (configuration, read once at start). */
export function configureActions(allow: string) {
  httpAllow = parseHttpAllow(allow);
}

/** What the applicant wrote at the start: no action may rewrite it (service/tasks.ts START_VARIABLES). */
const LOCKED = new Set(['applyUser', 'businessId', 'taskUser', 'days', 'title', 'content']);

const refused = (reason: string) => new ApiError(409, 'flowStuck', { reason });

export async function performAction(
  tx: Db,
  instance: typeof flowInstance.$inferSelect,
  action: ActionRequest,
  vars: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const field = (name: string) => {
    const v = action.fields[name];
    return v === undefined ? undefined : resolve(v.trim(), vars);
  };
  switch (action.action) {
    case 'variables': {
      const out: Record<string, unknown> = {};
      for (const name of Object.keys(action.fields)) if (!LOCKED.has(name)) out[name] = field(name);
      return out;
    }
    case 'notice': {
      const wanted = String(field('to') ?? '')
        .split(',')
        .map((p) => String(resolve(p.trim(), vars) ?? '').trim())
        .filter(isId);
      // only users of the instance's own tenant receive it
      const users = wanted.length
        ? await tx
            .select({ id: schema.user.id })
            .from(schema.user)
            .where(
              and(
                inArray(schema.user.id, wanted),
                eq(schema.user.tenantId, instance.tenantId),
                notDeleted(schema.user.isDeleted),
              ),
            )
        : [];
      const title = String(field('title') ?? action.name).slice(0, 255);
      if (users.length)
        await tx.insert(flowNotice).values(
          users.map((u) => ({
            tenantId: instance.tenantId,
            userId: u.id,
            processInstanceId: instance.processInstanceId,
            title,
            titleEn: title,
          })),
        );
      return {};
    }
    case 'http':
      // never here: a network call is not made while a transaction is open (service/outbox.ts deferAction)
      throw refused(`${action.name}: an http action runs after the transaction (deferAction)`);
    default: {
      const run = moduleActions.get(action.action);
      if (!run)
        throw refused(`${action.name} names no action this system offers: ${action.action || '(none)'}`);
      return run(tx, instance, field);
    }
  }
}

/** An http action's request, as prepareHttp wrote it down (flow_wait.payload). */
export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  /** the JSON body of a POST */
  body?: unknown;
  /** the variable the answer's status becomes */
  resultVariable: string;
}

/**
 * Checks an http action's address against the allow-list and writes its request down, with the variables
 * of the moment the task is reached. Throws (the run is refused, nothing is kept) when the address is not
 * allowed.
 */
export function prepareHttp(
  instance: typeof flowInstance.$inferSelect,
  action: ActionRequest,
  vars: Record<string, unknown>,
): HttpRequest {
  const field = (name: string) => {
    const v = action.fields[name];
    return v === undefined ? undefined : resolve(v.trim(), vars);
  };
  const url = String(field('url') ?? '');
  if (!httpAllowed(httpAllow, url))
    throw refused(`the address of ${action.name} is not on the allow-list (FLOW_HTTP_ALLOW): ${url}`);
  const method = String(field('method') ?? 'POST').toUpperCase() === 'GET' ? 'GET' : 'POST';
  return {
    url,
    method,
    ...(method === 'POST'
      ? { body: field('body') ?? { processInstanceId: instance.processInstanceId } }
      : {}),
    resultVariable: String(action.fields.resultVariable ?? 'httpStatus'),
  };
}

/**
 * Makes the call (never inside a transaction) and answers the variables it sets. `key` is the same for every
 * attempt of one action (its flow_wait row): it is sent as `Idempotency-Key`, because an action whose server
 * died after the call but before the instance went on is called again. Throws when there is no answer.
 */
export async function sendHttp(request: HttpRequest, key: string): Promise<Record<string, unknown>> {
  // the allow-list of now: an address taken off it is not called any more
  if (!httpAllowed(httpAllow, request.url))
    throw new Error(`not on the allow-list (FLOW_HTTP_ALLOW) any more: ${request.url}`);
  const res = await fetch(request.url, {
    method: request.method,
    redirect: 'error',
    signal: AbortSignal.timeout(5000),
    headers: {
      'idempotency-key': key,
      ...(request.method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(request.method === 'POST' ? { body: JSON.stringify(request.body ?? null) } : {}),
  });
  await res.body?.cancel();
  return { [request.resultVariable]: res.status };
}
