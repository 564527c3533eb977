import { lookup } from 'node:dns';
import { get as httpGet, request as httpRequest, type IncomingMessage } from 'node:http';
import { get as httpsGet, request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * A GET of an address someone typed (a picture in an article), which must not become a way into the
 * server's own network: with `hosts: 'public'`, an address that is or resolves to loopback, a private, shared,
 * link-local (cloud metadata at 169.254.169.254), multicast or reserved range — IPv4, IPv6, or IPv4 inside IPv6 —
 * is refused. The check is made on the addresses the connection is actually opened to (the request's own
 * `lookup`), so a name that resolves differently the second time (DNS rebinding) gains nothing.
 */

const INNER = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  INNER.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127], // unspecified and loopback
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INNER.addSubnet(net, bits, 'ipv6');

/** `::ffff:7f00:1` or `::ffff:127.0.0.1` → 127.0.0.1: IPv4 written inside IPv6, judged as IPv4 */
function mappedIpv4(address: string): string | null {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(
    address,
  );
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = Number.parseInt(m[2], 16);
  const lo = Number.parseInt(m[3], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether an IP address is inside a server's own network (or not an address at all). */
export function innerAddress(address: string): boolean {
  // BlockList checks an IPv4 address against IPv6 rules as mapped, not the other way round
  const mapped = isIP(address) === 6 ? mappedIpv4(address) : null;
  if (mapped) return innerAddress(mapped);
  const family = isIP(address);
  if (family === 4) return INNER.check(address, 'ipv4');
  if (family === 6) return INNER.check(address, 'ipv6');
  return true;
}

/** what a refused address fails with (the request's `error`) */
export class InnerAddressError extends Error {
  readonly code = 'EINNERADDRESS';
  constructor(host: string) {
    super(`${host} is inside the server's network`);
  }
}

const publicLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    if (!addresses.length || addresses.some((a) => innerAddress(a.address)))
      return callback(new InnerAddressError(hostname), '', 0);
    if (options.all) return (callback as (e: null, a: typeof addresses) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

export type OutboundHosts = 'public' | 'any';

/**
 * One GET of `url` (no redirect followed: the caller decides on each `location`), answered once its headers
 * are in; `signal` ends it, body included. http(s) only.
 */
export function outboundGet(url: URL, hosts: OutboundHosts, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new Error('not http(s)'));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // a literal address is connected to without a lookup: checked here
    if (hosts === 'public' && isIP(host) && innerAddress(host)) return reject(new InnerAddressError(host));
    const get = url.protocol === 'https:' ? httpsGet : httpGet;
    const req = get(url, { signal, lookup: hosts === 'public' ? publicLookup : undefined }, resolve);
    req.on('error', reject);
  });
}

/** What `outboundPost` answers: the status, the headers (lower-case names) and the body as text. */
export interface OutboundAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One POST of `body` to an address an administrator typed (an SMS provider's), under the same rule as
 * `outboundGet`: with `hosts: 'public'` nothing inside the server's network is reached. The answer's body
 * is read up to `maxBytes`; `timeoutMs` ends it all.
 */
export function outboundPost(
  url: URL,
  hosts: OutboundHosts,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; maxBytes: number },
): Promise<OutboundAnswer> {
  return new Promise((resolve, reject) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new Error('not http(s)'));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (hosts === 'public' && isIP(host) && innerAddress(host)) return reject(new InnerAddressError(host));
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(opts.timeoutMs),
        lookup: hosts === 'public' ? publicLookup : undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= opts.maxBytes) chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
