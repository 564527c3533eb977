import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStorage } from './storage';

/**
 * An S3-compatible bucket (MinIO, Aliyun OSS, Tencent COS, Qiniu, Huawei OBS, s3rver in tests) as the
 * product's storage: the server writes through the internal endpoint; browsers read through the public
 * domain — the bucket's address as they reach it — either as it is (a public bucket) or by a GET signed for
 * that host (a private one: a link signed for the internal host would not pass behind another name).
 */
export interface S3Settings {
  /** server → storage, `http(s)://host[:port]` */
  endpoint: string;
  /** browser → storage; the internal endpoint when empty */
  publicDomain: string | null;
  bucket: string;
  region: string;
  pathStyle: boolean;
  isPublic: boolean;
  accessKey: string;
  secretKey: string;
  /** a signed link's lifetime in seconds */
  signExpiry: number;
}

/** how long one request to the storage may take before it is given up */
const REQUEST_TIMEOUT_MS = 15_000;

function client(endpoint: string, s: S3Settings) {
  return new S3Client({
    endpoint,
    region: s.region || 'us-east-1',
    forcePathStyle: s.pathStyle,
    credentials: { accessKeyId: s.accessKey, secretAccessKey: s.secretKey },
    // S3-compatible services other than AWS do not all take the newer default checksums
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
    requestHandler: { requestTimeout: REQUEST_TIMEOUT_MS, connectionTimeout: REQUEST_TIMEOUT_MS },
  });
}

/** A storage failure as the provider worded it: its code (`NoSuchBucket`), message and HTTP status. */
export interface ProviderError {
  code: string;
  message: string;
  status: number | null;
}

/** The provider's own code and message of a failed call (a network error's code when none answered). */
export function providerError(e: unknown): ProviderError {
  if (e instanceof S3ServiceException)
    return {
      code: e.name || 'Unknown',
      message: e.message || e.name,
      status: e.$metadata?.httpStatusCode ?? null,
    };
  const err = e as { code?: unknown; name?: unknown; message?: unknown };
  return {
    code: typeof err?.code === 'string' ? err.code : typeof err?.name === 'string' ? err.name : 'Error',
    message: typeof err?.message === 'string' ? err.message : String(e),
    status: null,
  };
}

export class S3Storage implements ObjectStorage {
  private readonly internal: S3Client;
  private readonly browser: S3Client;

  constructor(
    private readonly s: S3Settings,
    /** where a streamed upload waits until its length is known (S3 wants it up front) */
    private readonly spoolDir: string,
  ) {
    this.internal = client(s.endpoint, s);
    this.browser = client(s.publicDomain || s.endpoint, s);
  }

  async put(key: string, data: Buffer) {
    await this.internal.send(new PutObjectCommand({ Bucket: this.s.bucket, Key: key, Body: data }));
  }

  /** written to a spool file as it arrives, then sent with its length; nothing is left behind on failure */
  async putStream(key: string, source: AsyncIterable<Buffer>) {
    await mkdir(this.spoolDir, { recursive: true });
    const spool = join(this.spoolDir, randomUUID());
    try {
      await pipeline(Readable.from(source), createWriteStream(spool));
      const { size } = await stat(spool);
      await this.internal.send(
        new PutObjectCommand({
          Bucket: this.s.bucket,
          Key: key,
          Body: createReadStream(spool),
          ContentLength: size,
        }),
      );
    } finally {
      await rm(spool, { force: true });
    }
  }

  async remove(key: string) {
    await this.internal.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: key }));
  }

  async size(key: string) {
    try {
      const h = await this.internal.send(new HeadObjectCommand({ Bucket: this.s.bucket, Key: key }));
      return h.ContentLength ?? 0;
    } catch (e) {
      if (providerError(e).status === 404) return null;
      throw e;
    }
  }

  /** the object's bytes (the storage test compares them) */
  async get(key: string): Promise<Buffer> {
    const out = await this.internal.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: key }));
    return Buffer.from((await out.Body?.transformToByteArray()) ?? []);
  }

  async head(key: string): Promise<number> {
    const h = await this.internal.send(new HeadObjectCommand({ Bucket: this.s.bucket, Key: key }));
    return h.ContentLength ?? 0;
  }

  /**
   * The address a browser reads the object at, made now: the public domain's plain URL for a public bucket,
   * else a GET signed for the public domain that lives `signExpiry` seconds.
   */
  async link(key: string, opts: { contentDisposition?: string } = {}): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.s.bucket,
      Key: key,
      ResponseContentDisposition: opts.contentDisposition,
    });
    if (!this.s.isPublic) return getSignedUrl(this.browser, command, { expiresIn: this.s.signExpiry });
    const base = new URL(this.s.publicDomain || this.s.endpoint);
    const path = key.split('/').map(encodeURIComponent).join('/');
    const origin = `${base.protocol}//${base.host}`;
    return this.s.pathStyle
      ? `${origin}/${encodeURIComponent(this.s.bucket)}/${path}`
      : `${base.protocol}//${this.s.bucket}.${base.host}/${path}`;
  }

  destroy() {
    this.internal.destroy();
    this.browser.destroy();
  }
}
