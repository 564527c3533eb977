import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * API answers compressed in one call, by this one hook. An answer that is text (JSON) is compressed in one
 * zlib call, with brotli at quality 4 or gzip at zlib's default level, and sent with its length: small ones
 * on the event loop, larger ones in zlib's thread pool. Streams pass as they are: every streamed answer is
 * a file, a video or a download, binary by its type; the web's assets are compressed at build time and
 * served as such (@fastify/static, `preCompressed`).
 *
 * (@fastify/compress did this until it was measured: it pipes every answer through a stream, and its two
 * hooks on every route cost about 2 % of a list page's CPU even for a client that asks for no encoding.)
 */

/** smaller answers are sent as they are */
const COMPRESS_THRESHOLD = 1024;
/**
 * up to this, compressed on the event loop (a few hundred microseconds at most): waiting for a thread of
 * the pool, on a busy machine, costs more than that; larger answers are compressed in the pool
 */
const INLINE_MAX = 32 * 1024;
/** the types compressed here: JSON and text (never an event stream) */
const TEXT_TYPES = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)/u;
const BROTLI_QUALITY = 4;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer in, from Accept-Encoding: br or gzip, whichever has the higher q (br on a tie),
 * never one with q=0; `*` and `x-gzip` are gzip.
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

/** Registers the hook; call before the routes. */
export function compressAnswers(app: FastifyInstance) {
  // the last Accept-Encoding read, and what it chose: a browser sends the same one with every request
  let lastAccepted = '';
  let lastChosen: Encoding | undefined;
  // every answer passes here: what is cheapest to read decides first (most callers, and every bench and
  // client that asks for identity, never reach the length of the body), and no promise is made to pass
  app.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const pass = () => done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return pass();
    const accepted = req.headers['accept-encoding'];
    if (accepted === undefined) return pass();
    const header = Array.isArray(accepted) ? accepted.join(',') : accepted;
    if (header !== lastAccepted) {
      lastChosen = negotiateEncoding(header);
      lastAccepted = header;
    }
    const chosen = lastChosen;
    if (!chosen || req.headers['x-no-compression'] !== undefined) return pass();
    const encoding = reply.getHeader('content-encoding');
    if (encoding !== undefined && encoding !== 'identity') return pass();
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !TEXT_TYPES.test(type)) return pass();
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (length < COMPRESS_THRESHOLD) return pass();
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
