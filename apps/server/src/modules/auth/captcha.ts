import { randomUUID } from 'node:crypto';
import type { KvStore } from '../../platform/kv';

/** Captcha answers live in the shared store for this long and can be used once. */
export const CAPTCHA_TTL_SECONDS = 300;

type SvgCaptcha = typeof import('svg-captcha');
let captchaModule: Promise<SvgCaptcha> | undefined;

export async function issueCaptcha(kv: KvStore): Promise<{ key: string; image: string }> {
  // loaded with the first captcha: a server without captcha mode never needs it
  captchaModule ??= import('svg-captcha').then(
    (m) => (m as unknown as { default?: SvgCaptcha }).default ?? m,
  );
  const svgCaptcha = await captchaModule;
  const c = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: '0oO1ilI',
    color: true,
    width: 120,
    height: 40,
  });
  const key = randomUUID();
  await kv.set(`captcha:${key}`, c.text.toLowerCase(), CAPTCHA_TTL_SECONDS);
  return { key, image: `data:image/svg+xml;base64,${Buffer.from(c.data).toString('base64')}` };
}

/** True only for the right answer of a live key; the key is spent either way. */
export async function checkCaptcha(kv: KvStore, key: string | undefined, code: string | undefined) {
  if (!key || !code) return false;
  const answer = await kv.take(`captcha:${key}`);
  return answer !== null && answer === code.trim().toLowerCase();
}
