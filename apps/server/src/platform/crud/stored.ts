import type { FieldDef, FieldType } from '@smart/contracts';
import sanitizeHtml from 'sanitize-html';

/**
 * The server's half of the field-kind registry (the shared half is `FIELD_KINDS` in packages/contracts):
 * what a kind's valid value becomes before it is stored, where only the server may decide it. The write path
 * (write.ts) applies it to every row, whoever writes it (submit, Excel import, bulk actions).
 */

/** Formatted text keeps what an editor makes (paragraphs, headings, emphasis, lists, links, tables, images
 * the server issued); scripts, styles, event handlers and other sites' images are dropped. */
const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'img',
    'span',
    'hr',
    'code',
    'pre',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  // an image is one the server issued for an upload (a path of its own), never another site's (a tracker)
  exclusiveFilter: (frame) =>
    frame.tag === 'img' && !/^\/api\/dfem-hope-manage\/file\/image\//.test(frame.attribs.src ?? ''),
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

export const STORED: Partial<Record<FieldType, (value: string, f: FieldDef) => string>> = {
  richText: (v) => sanitizeHtml(v, RICH_TEXT),
};

/** A field's value as it is stored (unchanged for kinds the server does not clean). */
export function storedValue(f: FieldDef, v: unknown): unknown {
  const clean = STORED[f.type];
  return clean && typeof v === 'string' ? clean(v, f) : v;
}
