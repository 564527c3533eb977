/**
 * WeChat's callback XML: one `<xml>` element of named children, each text (often in CDATA) or, for a few
 * events (scancode, pic, location_select), one more level of such children. Read here without a parser
 * library: no attributes, no entities beyond the five, no DTD (so nothing external is ever fetched).
 */

export type WxXml = { [name: string]: string | WxXml };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const unentity = (s: string) => s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ENTITIES[e]);

function children(body: string, depth: number): WxXml | null {
  const out: WxXml = {};
  // a child's CDATA first (a text may hold `</Content>` itself), else its text or nested children
  const re = /<([A-Za-z_][\w.-]*)>((?:\s*<!\[CDATA\[[\s\S]*?\]\]>)+\s*(?=<\/\1>)|[\s\S]*?)<\/\1>|\s+/gy;
  let at = 0;
  while (at < body.length) {
    re.lastIndex = at;
    const m = re.exec(body);
    if (!m) return null;
    at = re.lastIndex;
    if (!m[1]) continue;
    const inner = m[2];
    // one CDATA section, or several (a `]]>` inside a text is written across two)
    if (/^\s*(?:<!\[CDATA\[[\s\S]*?\]\]>\s*)+$/.test(inner))
      out[m[1]] = [...inner.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((c) => c[1]).join('');
    else if (inner.includes('<')) {
      if (depth >= 2) return null;
      const nested = children(inner.trim(), depth + 1);
      if (!nested) return null;
      out[m[1]] = nested;
    } else out[m[1]] = unentity(inner);
  }
  return out;
}

/** The children of the document's `<xml>` element, or null when it is not such a document. */
export function parseWxXml(text: string): WxXml | null {
  if (text.length > 1_000_000) return null;
  const m = /^\s*(?:<\?xml[^>]*\?>\s*)?<xml>([\s\S]*)<\/xml>\s*$/.exec(text);
  return m ? children(m[1].trim(), 1) : null;
}

const inCdata = (v: string) => `<![CDATA[${v.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;

/** An `<xml>` document of the given children: numbers as they are, text in CDATA. */
export function wxXml(fields: Record<string, string | number>): string {
  const parts = Object.entries(fields).map(
    ([k, v]) => `<${k}>${typeof v === 'number' ? String(v) : inCdata(v)}</${k}>`,
  );
  return `<xml>${parts.join('')}</xml>`;
}

/** A text child of a parsed document ('' when absent or nested). */
export const field = (x: WxXml, name: string): string =>
  typeof x[name] === 'string' ? (x[name] as string) : '';
