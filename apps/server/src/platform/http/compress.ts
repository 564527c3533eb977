import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * API answers compressed in one call. @fastify/compress pipes every answer through a stream (an async
 * iterator, a peek stream, the zlib stream, chunked transfer): for a list page of a few kilobytes that
 * costs more waiting than the page's query. An answer that is text (JSON) of at most SMALL_MAX bytes is
 * compressed here instead, in one zlib call, with the plugin's own settings (brotli at quality 4, gzip at
 * zlib's default level), and sent with its length; the plugin then leaves it alone
 * (it skips an answer that already has a Content-Encoding). Larger answers, streams, files and anything the
 * client asks to have uncompressed still go through the plugin. The encodings are the plugin's, preferred in
 * the same order.
 */

/** the threshold the plugin is registered with (app.ts): smaller answers are sent as they are */
export const COMPRESS_THRESHOLD = 1024;
/** past this, answers stream through the plugin */
const SMALL_MAX = 256 * 1024;
/**
 * up to this, compressed on the event loop (a few hundred microseconds at most): waiting for a thread of
 * the pool, on a busy machine, costs more than that; larger answers are compressed in the pool
 */
const INLINE_MAX = 32 * 1024;
/** the types compressed here: JSON and text (the plugin's default list also has XML and octet streams) */
const TEXT_TYPES = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)/u;
const BROTLI_QUALITY = 4;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer in, from Accept-Encoding: br or gzip, whichever has the higher q (br on a tie, as
 * the plugin prefers), never one with q=0; `*` and `x-gzip` are gzip (as the plugin reads them).
 */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const part of header.toLowerCase().split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName.trim();
    const enc: Encoding | undefined =
      name === 'br' ? 'br' : name === 'gzip' || name === 'x-gzip' || name === '*' ? 'gzip' : undefined;
    if (!enc) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number.parseFloat(m[1]) || 0;
    }
    if (q <= 0) continue;
    if (q > bestQ || (q === bestQ && enc === 'br')) {
      best = enc;
      bestQ = q;
    }
  }
  return best;
}

/**
 * The window of a small answer's compressor: the smallest power of two that holds it (zlib's and brotli's
 * defaults are 32 KB and 4 MB: the same output for an answer that fits, but each call would set up and clear
 * the larger tables).
 */
const windowBits = (length: number) => Math.min(15, Math.max(10, Math.ceil(Math.log2(length + 262))));

const brotliOptions = (body: Buffer) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    [constants.BROTLI_PARAM_LGWIN]: Math.max(constants.BROTLI_MIN_WINDOW_BITS, windowBits(body.length)),
  },
});
const gzipOptions = (body: Buffer) => ({ windowBits: windowBits(body.length) });

function compressOnce(encoding: Encoding, body: Buffer): Buffer | Promise<Buffer> {
  if (body.length <= INLINE_MAX)
    return encoding === 'br'
      ? brotliCompressSync(body, brotliOptions(body))
      : gzipSync(body, gzipOptions(body));
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (encoding === 'br') brotliCompress(body, brotliOptions(body), done);
    else gzip(body, gzipOptions(body), done);
  });
}

function varyOnEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'accept-encoding');
    return;
  }
  const values = (Array.isArray(vary) ? vary : [String(vary)]).map(String);
  if (!values.some((v) => v.includes('accept-encoding')))
    reply.header('vary', values.concat('accept-encoding').join(', '));
}

/** Registers the hook; call after registering @fastify/compress and before the routes. */
export function compressSmallAnswers(app: FastifyInstance) {
  // every answer passes here: what is cheapest to read decides first (most callers, and every bench and
  // client that asks for identity, never reach the length of the body), and no promise is made to pass
  app.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const pass = () => done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return pass();
    const accepted = req.headers['accept-encoding'];
    if (accepted === undefined) return pass();
    const chosen = negotiateEncoding(Array.isArray(accepted) ? accepted.join(',') : accepted);
    if (!chosen || req.headers['x-no-compression'] !== undefined) return pass();
    const encoding = reply.getHeader('content-encoding');
    if (encoding !== undefined && encoding !== 'identity') return pass();
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !TEXT_TYPES.test(type)) return pass();
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (length < COMPRESS_THRESHOLD || length > SMALL_MAX) return pass();
    const send = (compressed: Buffer) => {
      varyOnEncoding(reply);
      reply.header('content-encoding', chosen);
      done(null, compressed);
    };
    const out = compressOnce(chosen, typeof payload === 'string' ? Buffer.from(payload) : payload);
    if (Buffer.isBuffer(out)) return send(out);
    out.then(send, (err: Error) => done(err));
  });
}
