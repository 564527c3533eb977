import type { WallCamera } from '@smart/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows } from '../../platform/crud/write';
import { type Db, schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { notFound } from '../../platform/http/errors';
import { camera } from './tables';

/**
 * The live video wall's calls, declared on the camera binding (hooks.ts): both ask for `camera_wall` (the
 * wall's menu code: the resource's `camera` with the suffix `_wall`), so a person may watch without
 * managing cameras, and both see only the cameras within the caller's reach (tenant, data scope).
 */

/** the most cameras the wall's pickers offer */
const WALL_MAX = 2000;

/** `camera/wall`: the cameras the wall may show, with what a tile needs to play them. */
export const cameraWallEndpoint = endpoint({
  method: 'GET',
  path: 'wall',
  codeSuffix: '_wall',
  query: z.object({}).strict(),
  async handler({ resource, scope }): Promise<WallCamera[]> {
    const rows = await resource.db
      .select({
        id: camera.id,
        name: camera.name,
        place: camera.place,
        streamUrl: camera.streamUrl,
        streamKind: camera.streamKind,
        codec: camera.codec,
        online: camera.online,
      })
      .from(camera)
      .where(scope)
      .orderBy(asc(camera.name), asc(camera.id))
      .limit(WALL_MAX);
    return rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      place: r.place ? String(r.place) : null,
      streamUrl: String(r.streamUrl),
      streamKind: String(r.streamKind ?? ''),
      codec: String(r.codec ?? ''),
      online: Number(r.online ?? 0),
    }));
  },
});

/**
 * `camera/watch` (POST `{ cameraId }`): a tile's stream of the camera started playing (the web sends it on
 * the video's first `playing`, never for a stream that did not play); written to the watch log through
 * the log resource's write path (who, which camera, when). A camera out of the caller's reach is "not found".
 */
export const cameraWatchEndpoint = endpoint({
  method: 'POST',
  path: 'watch',
  codeSuffix: '_wall',
  query: z.object({}).strict(),
  body: z.object({ cameraId: z.string().regex(/^\d{1,19}$/) }).strict(),
  async handler({ resource, scope, ctx, body }) {
    const db = resource.db;
    const [cam] = await db
      .select({ id: camera.id })
      .from(camera)
      .where(and(scope, eq(camera.id, body.cameraId)))
      .limit(1);
    if (!cam) throw notFound();
    const log = mountedResource('cameraWatchLog');
    const [who] = await db
      .select({ name: schema.user.realName })
      .from(schema.user)
      .where(eq(schema.user.id, ctx.userId))
      .limit(1);
    const userName = (who?.name || ctx.account).slice(0, 40);
    const [written] = await db.transaction((tx) =>
      insertRows(
        log,
        ctx,
        tx as unknown as Db,
        [{ cameraId: String(cam.id), userName, watchedAt: formatDateTime(new Date()) }],
        { answer: true },
      ),
    );
    log.changed();
    return { id: String(written.row.id) };
  },
});
