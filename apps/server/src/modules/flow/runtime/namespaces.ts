/**
 * A document whose prefixes each mean one namespace. XML lets a file bind a prefix again inside it (to
 * another namespace, or the default namespace to another one); bpmn-moddle reads such a file but names
 * each namespace by the first prefix it saw for it — the prefix bound again inside then means two things
 * — and cannot write the diagram back (`no namespace uri given for prefix <ns0>`), so the engine could not
 * start it, and the Flowable or Activiti attributes under such a binding were read as another vendor's.
 * `plainNamespaces` rewrites the names of such a file — elements, attributes, `xsi:type` values — with one
 * prefix per namespace, all declared on the root; a file that binds nothing again is answered as it is.
 */

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const ATTR = /\s*([^\s=/>]+)\s*=\s*("[^"]*"|'[^']*')/y;

interface Tag {
  start: number;
  end: number;
  closing: boolean;
  name: string;
  attrs: { name: string; value: string }[];
  empty: boolean;
}

/** The start and end tags of a document, in order (comments, CDATA, declarations and text skipped). */
function tagsOf(xml: string): Tag[] {
  const tags: Tag[] = [];
  let i = xml.indexOf('<');
  while (i >= 0 && i < xml.length) {
    const skip = (close: string) => {
      const at = xml.indexOf(close, i);
      return at < 0 ? xml.length : at + close.length;
    };
    let next: number;
    if (xml.startsWith('<!--', i)) next = skip('-->');
    else if (xml.startsWith('<![CDATA[', i)) next = skip(']]>');
    else if (xml.startsWith('<?', i)) next = skip('?>');
    else if (xml.startsWith('<!', i)) next = skip('>');
    else {
      const closing = xml[i + 1] === '/';
      NAME.lastIndex = i + (closing ? 2 : 1);
      const name = NAME.exec(xml)?.[0];
      if (!name) throw new Error(`unreadable tag at ${i}`);
      let at = NAME.lastIndex;
      const attrs: Tag['attrs'] = [];
      for (;;) {
        ATTR.lastIndex = at;
        const m = ATTR.exec(xml);
        if (!m) break;
        attrs.push({ name: m[1], value: m[2].slice(1, -1) });
        at = ATTR.lastIndex;
      }
      const close = xml.indexOf('>', at);
      if (close < 0) throw new Error(`unclosed tag at ${i}`);
      tags.push({ start: i, end: close + 1, closing, name, attrs, empty: xml[close - 1] === '/' });
      next = close + 1;
    }
    i = xml.indexOf('<', next);
  }
  return tags;
}

/** The document with one prefix per namespace (see above). */
export function plainNamespaces(xml: string): string {
  // (quick: no prefix declared twice with two namespaces, anywhere in the text)
  const declared = new Map<string, string>();
  let twice = false;
  for (const m of xml.matchAll(/\sxmlns(?::([\w.-]+))?\s*=\s*["']([^"']*)["']/g)) {
    const before = declared.get(m[1] ?? '');
    if (before !== undefined && before !== m[2]) twice = true;
    declared.set(m[1] ?? '', m[2]);
  }
  if (!twice) return xml;
  let tags: Tag[];
  try {
    tags = tagsOf(xml);
  } catch {
    return xml; // the parser names what is wrong with it
  }
  // every binding, in document order: is any prefix bound to two namespaces?
  const seen = new Map<string, string>();
  let rebound = false;
  for (const t of tags)
    for (const a of t.attrs) {
      const prefix = a.name === 'xmlns' ? '' : a.name.startsWith('xmlns:') ? a.name.slice(6) : undefined;
      if (prefix === undefined) continue;
      if (seen.has(prefix) && seen.get(prefix) !== a.value) rebound = true;
      seen.set(prefix, a.value);
    }
  if (!rebound) return xml;
  // one prefix per namespace: the first one it was bound to, unless another namespace has it already
  const canonical = new Map<string, string>();
  const taken = new Set<string>(['xml', 'xmlns']);
  const canon = (uri: string, wanted: string) => {
    let p = canonical.get(uri);
    if (p !== undefined) return p;
    p = wanted;
    for (let n = 1; taken.has(p); n++) p = `${wanted || 'ns'}${n}`;
    taken.add(p);
    canonical.set(uri, p);
    return p;
  };
  const scopes: Map<string, string>[] = [new Map([['xml', 'http://www.w3.org/XML/1998/namespace']])];
  const out: string[] = [];
  let last = 0;
  let rootEnd = -1;
  const rename = (qname: string, scope: Map<string, string>, element: boolean) => {
    const [prefix, local] = qname.includes(':') ? qname.split(':') : ['', qname];
    if (prefix === 'xml' || (!prefix && !element)) return qname;
    const uri = scope.get(prefix);
    if (uri === undefined) return qname;
    const p = canon(uri, prefix);
    return p ? `${p}:${local}` : local;
  };
  for (const t of tags) {
    if (t.closing) {
      const scope = scopes.pop() ?? scopes[0];
      out.push(xml.slice(last, t.start), `</${rename(t.name, scope, true)}>`);
      last = t.end;
      continue;
    }
    const scope = new Map(scopes[scopes.length - 1]);
    for (const a of t.attrs) {
      const prefix = a.name === 'xmlns' ? '' : a.name.startsWith('xmlns:') ? a.name.slice(6) : undefined;
      if (prefix === undefined) continue;
      scope.set(prefix, a.value);
      canon(a.value, prefix);
    }
    const attrs = t.attrs
      .filter((a) => a.name !== 'xmlns' && !a.name.startsWith('xmlns:'))
      .map((a) => {
        const name = rename(a.name, scope, false);
        const isType =
          a.name.includes(':') && scope.get(a.name.split(':')[0]) === XSI && a.name.endsWith(':type');
        const value = isType && a.value.includes(':') ? rename(a.value, scope, true) : a.value;
        return ` ${name}="${value.replace(/"/g, '&quot;')}"`;
      });
    out.push(xml.slice(last, t.start), `<${rename(t.name, scope, true)}`);
    if (rootEnd < 0) rootEnd = out.length;
    out.push(attrs.join(''), t.empty ? '/>' : '>');
    last = t.end;
    if (!t.empty) scopes.push(scope);
  }
  out.push(xml.slice(last));
  // every namespace declared once, on the root
  const declarations = [...canonical].map(([uri, p]) => ` ${p ? `xmlns:${p}` : 'xmlns'}="${uri}"`);
  out.splice(rootEnd, 0, declarations.join(''));
  return out.join('');
}
