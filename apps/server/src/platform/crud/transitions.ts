import { isId } from '@smart/contracts';
import { z } from 'zod';
import type { RequestContext } from '../auth/context';
import type { Row } from './binding';
import { endpoint, type ResourceEndpoint } from './endpoints';
import { transaction } from './write';

/**
 * A row's change of state, declared on its binding (`ResourceHooks.transitions`): `POST <path>/<name>` with
 * `{ id, … }`, the resource's code with `codeSuffix`. The row is read for update within the caller's
 * constraint; one whose `field` holds none of `from` is refused (`refused`), else it is patched to `to` —
 * with what `set` adds from the row as it was and the body — through the write path (the update stamps, the
 * binding's afterChange, the change told after the commit). Two racers: the second sees the first's state.
 */
export interface Transition {
  name: string;
  codeSuffix: string;
  /** the field holding the state (a dictionary's key) */
  field: string;
  /** the states the row may leave */
  from: readonly string[];
  /** the state it is left in */
  to: string;
  /** what a row in another state is told (a 409, or the area's own message) */
  refused: () => Error;
  /** what the body holds beside `id` (a reason) */
  body?: z.ZodRawShape;
  /** more fields written with the state, from the row as it was and the body (a reopening's record) */
  set?: (row: Row, body: Record<string, unknown>, ctx: RequestContext) => Record<string, unknown>;
  /** what is answered, from the row as written (default `{ id, <field> }`) */
  answer?: (row: Row) => unknown;
}

/** Declares a transition (typed; the engine mounts it as an endpoint of the resource). */
export const transition = (t: Transition): Transition => t;

const idText = z.string().refine(isId);

/** The endpoint the engine mounts for a transition. */
export function transitionEndpoint(t: Transition): ResourceEndpoint {
  return endpoint({
    method: 'POST',
    path: t.name,
    codeSuffix: t.codeSuffix,
    query: z.object({}).strict(),
    body: z.object({ id: idText, ...t.body }).strict(),
    async handler({ ctx, resource, scope, body }) {
      const { id, ...rest } = body as { id: string } & Record<string, unknown>;
      const row = await transaction(resource.db, (tx) =>
        resource.patch(
          ctx,
          tx,
          id,
          (was) => {
            if (!t.from.includes(String(was[t.field] ?? ''))) throw t.refused();
            return { ...t.set?.(was, rest, ctx), [t.field]: t.to };
          },
          scope,
        ),
      );
      return t.answer ? t.answer(row) : { id: row.id, [t.field]: row[t.field] };
    },
  });
}
