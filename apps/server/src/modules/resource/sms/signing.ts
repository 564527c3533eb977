import { createHash, createHmac } from 'node:crypto';

/**
 * The providers' documented request signatures, each a pure function of what is sent, so the client signs
 * with them and the SMS sandbox checks a received request by computing them again from what arrived (and
 * unit tests check them against the providers' published examples).
 */

/** RFC 3986 percent-encoding (Alibaba Cloud's `percentEncode`): only A–Z a–z 0–9 - _ . ~ stay as they are. */
export function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Alibaba Cloud's RPC signature (version 1.0, HMAC-SHA1): the parameters but `Signature`, sorted by name,
 * encoded and joined, then `METHOD&%2F&<encoded>` signed with `<secret>&`.
 */
export function aliyunRpcSignature(method: string, params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .filter((k) => k !== 'Signature')
    .sort()
    .map((k) => `${rfc3986(k)}=${rfc3986(params[k])}`)
    .join('&');
  const toSign = `${method.toUpperCase()}&${rfc3986('/')}&${rfc3986(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
}

const sha256hex = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/**
 * Tencent Cloud's TC3-HMAC-SHA256 over a POST of JSON, signing `content-type` and `host`: the canonical
 * request's hash signed with a key derived from the secret, the UTC date and the service.
 */
export function tc3Signature(a: {
  secretKey: string;
  service: string;
  host: string;
  contentType: string;
  payload: string;
  timestamp: number;
}): { signature: string; date: string; signedHeaders: string } {
  const date = new Date(a.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonical = [
    'POST',
    '/',
    '',
    `content-type:${a.contentType}\nhost:${a.host}\n`,
    signedHeaders,
    sha256hex(a.payload),
  ].join('\n');
  const scope = `${date}/${a.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(a.timestamp), scope, sha256hex(canonical)].join('\n');
  const kDate = hmac(`TC3${a.secretKey}`, date);
  const kService = hmac(kDate, a.service);
  const kSigning = hmac(kService, 'tc3_request');
  return { signature: createHmac('sha256', kSigning).update(toSign).digest('hex'), date, signedHeaders };
}

/**
 * Huawei Cloud's WSSE UsernameToken (its SMS API): Base64 of the hex SHA-256 of nonce + created + app secret.
 */
export function wssePasswordDigest(nonce: string, created: string, appSecret: string): string {
  return Buffer.from(sha256hex(nonce + created + appSecret)).toString('base64');
}

/**
 * Qiniu's management token (`Qiniu <ak>:<sign>`): URL-safe Base64 of the HMAC-SHA1 of the method, path and
 * query, the Host and Content-Type headers and, for a JSON or form body, the body.
 */
export function qiniuSignature(a: {
  secretKey: string;
  method: string;
  pathAndQuery: string;
  host: string;
  contentType: string;
  body: string;
}): string {
  const toSign = `${a.method.toUpperCase()} ${a.pathAndQuery}\nHost: ${a.host}\nContent-Type: ${a.contentType}\n\n${a.body}`;
  return createHmac('sha1', a.secretKey)
    .update(toSign)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}
