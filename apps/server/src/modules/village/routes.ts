import { randomUUID } from 'node:crypto';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { countBy } from '../../platform/crud/count-by';
import { readableRows } from '../../platform/crud/refs';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, invalidField, notFound } from '../../platform/http/errors';
import {
  type AttachmentKind,
  attachmentKind,
  imageKind,
  type VideoKind,
  videoKind,
} from '../../platform/storage';
import { villagerToParty } from '../party/tables';
import { villager, villagerToCadre, visitingReception, visitingRecords } from './tables';

/**
 * Village affairs beyond the resource engine (which serves page/detail/submit/remove and Excel of every
 * village resource, and the views declared on their bindings, endpoints.ts): the overview's figures, and
 * image and attachment upload.
 * Every query adds the constraint of the resource it reads (tenant, live rows, the caller's data scope).
 */

const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
const ATTACHMENT_TYPES: Record<AttachmentKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
};
const VIDEO_TYPES: Record<VideoKind, string> = { mp4: 'video/mp4', webm: 'video/webm' };
/** the bytes a video's kind is read from */
const VIDEO_HEAD_BYTES = 64;
const int = (v: unknown) => Number(v ?? 0);

function _parse<T extends z.ZodType>(schemaOf: T, value: unknown): z.infer<T> {
  const r = schemaOf.safeParse(value);
  if (!r.success) throw invalidField(String(r.error.issues[0]?.path[0] ?? 'query'));
  return r.data;
}

/** The first day of this month and of the next, as dates in the server's time zone. */
function monthRange(now = new Date()) {
  const today = formatDateTime(now).slice(0, 10);
  const [y, m] = today.split('-').map(Number);
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { start: `${today.slice(0, 7)}-01`, next, today };
}

export async function manageRoutes(app: FastifyInstance) {
  const { db, storage } = app.deps;
  const v = villager;

  /** The overview's figures (villageAffairsOverview screen), computed from the tenant's rows. */
  app.get('/villageAffairsOverview/statistics', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'village_affairs_overview');
    const scope = await readableRows('villager', ctx);
    const { start, next } = monthRange();
    const [totals] = await db
      .select({
        population: sql<number>`count(*)::int`,
        households: sql<number>`count(distinct ${v.householdNo})::int`,
        male: sql<number>`(count(*) filter (where ${v.sex} = '1'))::int`,
        female: sql<number>`(count(*) filter (where ${v.sex} = '2'))::int`,
        povertyAlleviated: sql<number>`(count(*) filter (where ${v.povertyAlleviated} = 1))::int`,
        lowIncome: sql<number>`(count(*) filter (where ${v.lowIncome} = 1))::int`,
        disabled: sql<number>`(count(*) filter (where ${v.disabled} = 1))::int`,
        veteran: sql<number>`(count(*) filter (where ${v.veteran} = 1))::int`,
        livingAlone: sql<number>`(count(*) filter (where ${v.livingAlone} = 1))::int`,
        elderly: sql<number>`(count(*) filter (where ${v.birthDate} <= (current_date - interval '60 years')))::int`,
        lowIncomeHouseholds: sql<number>`(count(distinct ${v.householdNo}) filter (where ${v.lowIncome} = 1))::int`,
        povertyHouseholds: sql<number>`(count(distinct ${v.householdNo}) filter (where ${v.povertyAlleviated} = 1))::int`,
      })
      .from(v)
      .where(scope);
    const bucket = sql<number>`least(floor(extract(year from age(current_date, ${v.birthDate})) / 10), 8)::int`;
    const pyramidRows = await db
      .select({ sex: v.sex, bucket, n: sql<number>`count(*)::int` })
      .from(v)
      .where(and(scope, sql`${v.birthDate} is not null`))
      .groupBy(v.sex, bucket);
    // counted by dictionary field under the caller's scope, labelled in the request's language
    const [politicalStatus, villageGroups, education] = await Promise.all([
      countBy(req, 'villager', 'politicalStatus'),
      countBy(req, 'villager', 'villageGroup'),
      countBy(req, 'villager', 'education'),
    ]);
    const [cadres] = await db
      .select({ n: sql<number>`count(distinct ${villagerToCadre.villagerId})::int` })
      .from(villagerToCadre)
      .where(and(await readableRows('villagerToCadre', ctx), eq(villagerToCadre.inOffice, 1)));
    const [party] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(villagerToParty)
      .where(await readableRows('villagerToParty', ctx));
    const [visits] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(visitingRecords)
      .where(
        and(
          await readableRows('visitingRecords', ctx),
          gte(visitingRecords.visitDate, start),
          lt(visitingRecords.visitDate, next),
        ),
      );
    const [receptions] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(visitingReception)
      .where(
        and(
          await readableRows('visitingReception', ctx),
          gte(visitingReception.receptionDate, start),
          lt(visitingReception.receptionDate, next),
        ),
      );
    const ages = ['0-9', '10-19', '20-29', '30-39', '40-49', '50-59', '60-69', '70-79', '80+'];
    const pyramid = ages.map((label, i) => ({
      age: label,
      male: int(pyramidRows.find((r) => r.bucket === i && r.sex === '1')?.n),
      female: int(pyramidRows.find((r) => r.bucket === i && r.sex === '2')?.n),
    }));
    return ok(req, {
      ...Object.fromEntries(Object.entries(totals).map(([k, x]) => [k, int(x)])),
      cadres: int(cadres.n),
      partyMembers: int(party.n),
      visitsThisMonth: int(visits.n),
      receptionsThisMonth: int(receptions.n),
      month: start.slice(0, 7),
      pyramid,
      politicalStatus,
      villageGroups,
      education,
    });
  });

  type Text = { zh: string; en: string };
  /**
   * One uploaded file, at most `maxBytes`, of a kind its content shows (`kindOf`), stored under a random
   * name in `folder`. An empty, cut-off or non-multipart body holds no file: the same 400 as a form without one.
   */
  async function acceptUpload<K extends string>(
    req: FastifyRequest,
    opts: {
      maxBytes: number;
      folder: string;
      kindOf: (buf: Buffer) => K | null | Promise<K | null>;
      messages: { none: Text; tooBig: Text; badKind: Text };
    },
  ) {
    requireCtx(req);
    const file = await req.file({ limits: { fileSize: opts.maxBytes + 1, files: 1 } }).catch(() => undefined);
    if (!file) throw new FieldInputError('file', opts.messages.none);
    const buf = await file.toBuffer().catch(() => null);
    if (!buf || buf.length > opts.maxBytes || file.file.truncated)
      throw new FieldInputError('file', opts.messages.tooBig);
    const kind = await opts.kindOf(buf);
    if (!kind) throw new FieldInputError('file', opts.messages.badKind);
    const name = `${randomUUID()}.${kind}`;
    await storage.put(`${opts.folder}/${name}`, buf);
    return { name, originalName: file.filename };
  }

  /** Photos of village records (villager photo, evidence, visit photos): JPG or PNG, checked by content. */
  app.post('/file/image', async (req) => {
    const { name } = await acceptUpload(req, {
      maxBytes: IMAGE_MAX_BYTES,
      folder: 'village',
      kindOf: imageKind,
      messages: {
        none: { zh: '请选择图片', en: 'please choose an image' },
        tooBig: { zh: '图片大小不能超过 2MB', en: 'The image must be at most 2 MB' },
        badKind: { zh: '只能上传 JPG 或 PNG 图片', en: 'Only JPG or PNG images' },
      },
    });
    return ok(req, { url: `/api/dfem-hope-manage/file/image/${name}`, name });
  });

  /**
   * Attachments of records (a `files` field): PDF, Word, Excel, PowerPoint or an image, at most 20 MB,
   * recognised by content (a renamed program is refused), stored under a random name.
   */
  app.post('/file/attach', async (req) => {
    const { name, originalName } = await acceptUpload(req, {
      maxBytes: ATTACHMENT_MAX_BYTES,
      folder: 'attach',
      kindOf: attachmentKind,
      messages: {
        none: { zh: '请选择文件', en: 'please choose a file' },
        tooBig: { zh: '文件大小不能超过 20MB', en: 'The file must be at most 20 MB' },
        badKind: {
          zh: '只能上传 PDF、Word、Excel、PowerPoint 文件或 JPG、PNG 图片',
          en: 'Only PDF, Word, Excel, PowerPoint files or JPG, PNG images',
        },
      },
    });
    return ok(req, { url: `/api/dfem-hope-manage/file/attach/${name}`, name, originalName });
  });

  /**
   * A video (a `video` field: care videos): MP4 or WebM by its first bytes, at most VIDEO_MAX_MB (config), written
   * to storage as it arrives (never held whole in memory); a renamed program or text is refused before a
   * byte is stored, and a file past the limit is removed.
   */
  const videoMaxMb = app.deps.config.VIDEO_MAX_MB;
  app.post('/file/video', async (req) => {
    requireCtx(req);
    const messages = {
      none: { zh: '请选择视频文件', en: 'please choose a video file' },
      tooBig: { zh: `视频大小不能超过 ${videoMaxMb}MB`, en: `The video must be at most ${videoMaxMb} MB` },
      badKind: { zh: '只能上传 MP4 或 WebM 视频', en: 'Only MP4 or WebM videos' },
    };
    const file = await req
      .file({ limits: { fileSize: videoMaxMb * 1024 * 1024, files: 1 } })
      .catch(() => undefined);
    if (!file) throw new FieldInputError('file', messages.none);
    const chunks = file.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const head: Buffer[] = [];
    let headBytes = 0;
    let ended = false;
    try {
      while (headBytes < VIDEO_HEAD_BYTES) {
        const next = await chunks.next();
        if (next.done) {
          ended = true;
          break;
        }
        head.push(next.value);
        headBytes += next.value.length;
      }
    } catch {
      throw new FieldInputError('file', messages.tooBig);
    }
    const kind = videoKind(Buffer.concat(head));
    if (!kind) {
      file.file.resume(); // the rest is read and dropped
      throw new FieldInputError('file', headBytes ? messages.badKind : messages.none);
    }
    const name = `${randomUUID()}.${kind}`;
    const key = `video/${name}`;
    async function* all() {
      yield* head;
      if (ended) return;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    }
    try {
      await storage.putStream(key, all());
    } catch {
      throw new FieldInputError('file', messages.tooBig);
    }
    if (file.file.truncated) {
      await storage.remove(key);
      throw new FieldInputError('file', messages.tooBig);
    }
    return ok(req, { url: `/api/dfem-hope-manage/file/video/${name}`, name, originalName: file.filename });
  });

  /** A video, played in place: whole, or the byte range a player asks for (seeking). */
  app.get<{ Params: { name: string } }>(
    '/file/video/:name',
    { config: { public: true } },
    async (req, reply) => {
      const m = /^([0-9a-f-]{36})\.(mp4|webm)$/.exec(req.params.name);
      if (!m) throw notFound();
      const key = `video/${req.params.name}`;
      const size = await storage.size(key);
      if (size === null) throw notFound();
      reply
        .header('content-type', VIDEO_TYPES[m[2] as VideoKind])
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=31536000, immutable');
      const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
      if (range && (range[1] || range[2])) {
        // bytes=a-b, bytes=a- (to the end), bytes=-n (the last n)
        let start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
        let end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (!range[1]) end = size - 1;
        if (start >= size || start > end) {
          return reply.code(416).header('content-range', `bytes */${size}`).send();
        }
        start = Math.max(0, start);
        end = Math.max(start, end);
        const stream = storage.open(key, { start, end });
        if (!stream) throw notFound();
        return reply
          .code(206)
          .header('content-range', `bytes ${start}-${end}/${size}`)
          .header('content-length', String(end - start + 1))
          .send(stream);
      }
      const stream = storage.open(key);
      if (!stream) throw notFound();
      return reply.header('content-length', String(size)).send(stream);
    },
  );

  // served as a download under its random name (never rendered in the console's origin)
  app.get<{ Params: { name: string } }>(
    '/file/attach/:name',
    { config: { public: true } },
    async (req, reply) => {
      const m = /^([0-9a-f-]{36})\.(pdf|docx|xlsx|pptx|png|jpg)$/.exec(req.params.name);
      if (!m) throw notFound();
      const stream = storage.open(`attach/${req.params.name}`);
      if (!stream) throw notFound();
      return reply
        .header('content-type', ATTACHMENT_TYPES[m[2] as AttachmentKind])
        .header('content-disposition', `attachment; filename="${req.params.name}"`)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(stream);
    },
  );

  app.get<{ Params: { name: string } }>(
    '/file/image/:name',
    { config: { public: true } },
    async (req, reply) => {
      const m = /^([0-9a-f-]{36})\.(png|jpg)$/.exec(req.params.name);
      if (!m) throw notFound();
      const stream = storage.open(`village/${req.params.name}`);
      if (!stream) throw notFound();
      return reply
        .header('content-type', m[2] === 'png' ? 'image/png' : 'image/jpeg')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(stream);
    },
  );
}
