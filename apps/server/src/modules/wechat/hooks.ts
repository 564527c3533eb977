import { carouselActive, carouselLinkProblem } from '@smart/contracts';
import { asc, desc } from 'drizzle-orm';
import { z } from 'zod';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { transaction } from '../../platform/crud/write';
import { today } from '../../platform/format';
import { FieldInputError, invalidField } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { QR_CONTENT_MAX, qrPngDataUrl } from '../../platform/redeem';
import { carousel } from './tables';

/**
 * What differs from the engine's pattern in 公众号与小程序: the family's banner calls (`carousel/page`,
 * `upsert`, `del/{id}`: the engine's list, submit and removal; `set/top/{id}/{1|0}`: a patch through the
 * write path with its own button), the list's order (top banners first, then by order), whether a banner is
 * active today, and a QR code's picture (`qrcode/getQRCodeBase64?content=`).
 */

/** a value as written: the record's when it sends one, else the row's as it was */
const written = (record: Record<string, unknown>, original: Row | undefined, k: string) =>
  Object.hasOwn(record, k) ? record[k] : original?.[k];

/**
 * `GET carousel/set/top/{a}/{b}` (spec §7): banner `a` on top (`b` = 1) or not (`b` = 0), with the button code
 * `carousel_top`. The row is patched within the caller's constraint: another tenant's banner, or one outside
 * the data scope, is not found (404); an id that is none, or a flag other than 0 or 1, is a 400.
 */
const setTop = endpoint({
  method: 'GET',
  path: 'set/top/:a/:b',
  codeSuffix: '_top',
  query: z.object({}).strict(),
  async handler({ req, ctx, resource, scope }) {
    const { a, b } = req.params as { a?: string; b?: string };
    const id = idString.safeParse(a);
    if (!id.success) throw invalidField('id');
    if (b !== '0' && b !== '1') throw invalidField('isTop');
    await transaction(resource.db, (tx) => resource.patch(ctx, tx, id.data, { isTop: Number(b) }, scope));
    return true;
  },
});

function carouselHooks(): ResourceHooks {
  return {
    submitAliases: ['upsert'],
    removeRoutes: [{ method: 'GET', path: 'del/{id}' }],
    endpoints: [setTop],
    // the banners as the mini-program shows them: top ones first, then by order, the newest first
    defaultOrder: [desc(carousel.isTop), asc(carousel.sortOrder), desc(carousel.id)],
    beforeWrite(_ctx, record, _mode, _id, original) {
      const problem = carouselLinkProblem(
        written(record, original, 'linkKind'),
        written(record, original, 'linkTarget'),
      );
      if (problem) throw new FieldInputError('linkTarget', problem);
    },
    // a banner outside its active dates (or switched off) is answered as not active
    toRow(row) {
      row.active = carouselActive(row, today());
      return row;
    },
  };
}

/**
 * `GET qrcode/getQRCodeBase64?content=` (spec §7): the QR code of `content` (1 to 512 characters, else a 400)
 * as a PNG data URL, `data:image/png;base64,…` — what an `<img src>` takes as it is, as the captcha's image
 * is answered (api-contract) — for whoever may view the QR codes (`qrcode_view`).
 */
const qrImage = endpoint({
  method: 'GET',
  path: 'getQRCodeBase64',
  codeSuffix: '_view',
  query: z.object({ content: z.string().min(1).max(QR_CONTENT_MAX) }).strict(),
  handler: ({ query }) => qrPngDataUrl(query.content),
});

/** Every WeChat resource's hooks, by key. */
export function wechatHooks(): Record<string, ResourceHooks> {
  return {
    carousel: carouselHooks(),
    qrcode: { endpoints: [qrImage] },
  };
}
