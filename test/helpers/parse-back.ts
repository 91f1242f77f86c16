/**
 * Small strict readers for parsing geo's files back the way their consumers do, written apart from
 * the writers (src/output/export/) so a shared mistake cannot hide: an XML parser (well-formedness
 * errors throw), an HTML tokenizer following the WHATWG rules for where a tag starts (what Google
 * Earth's balloon renderer would see in a description), and a CSV reader for either separator
 * that treats quotes as spreadsheets do (a quote opens a quoted field only at the field's start).
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: Array<XmlElement | string>;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(s: string, where: number): string {
  return s.replace(/&([^;]*);|&/g, (m, name: string | undefined) => {
    if (name === undefined) throw new Error(`bare & at ${where}`);
    if (name in XML_ENTITIES) return XML_ENTITIES[name]!;
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
    if (!num) throw new Error(`unknown entity &${name}; at ${where}`);
    return String.fromCodePoint(num[1]!.startsWith('x') ? parseInt(num[1]!.slice(1), 16) : Number(num[1]));
  });
}

/** The document element of `text`; throws on anything not well-formed (unclosed or crossed tags, stray < or &). */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  const NAME = /[A-Za-z_][\w.:-]*/y;
  const readName = () => {
    NAME.lastIndex = i;
    const m = NAME.exec(text);
    if (!m) throw new Error(`expected a name at ${i}`);
    i += m[0].length;
    return m[0];
  };
  const skipSpace = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  while (i < text.length) {
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      if (end < 0) throw new Error('unclosed processing instruction');
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i);
      if (end < 0) throw new Error('unclosed comment');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i);
      if (end < 0) throw new Error('unclosed CDATA');
      stack.at(-1)!.children.push(text.slice(i + 9, end));
      i = end + 3;
    } else if (text.startsWith('</', i)) {
      i += 2;
      const name = readName();
      skipSpace();
      if (text[i] !== '>') throw new Error(`bad end tag at ${i}`);
      i++;
      const open = stack.pop();
      if (!open || open.name !== name || stack.length === 0) throw new Error(`</${name}> closes <${open?.name}> at ${i}`);
    } else if (text[i] === '<') {
      i++;
      const el: XmlElement = { name: readName(), attrs: {}, children: [] };
      for (;;) {
        skipSpace();
        if (text.startsWith('/>', i)) {
          i += 2;
          stack.at(-1)!.children.push(el);
          break;
        }
        if (text[i] === '>') {
          i++;
          stack.at(-1)!.children.push(el);
          stack.push(el);
          break;
        }
        const attr = readName();
        skipSpace();
        if (text[i] !== '=') throw new Error(`attribute without value at ${i}`);
        i++;
        skipSpace();
        const q = text[i];
        if (q !== '"' && q !== "'") throw new Error(`unquoted attribute at ${i}`);
        const end = text.indexOf(q, i + 1);
        if (end < 0) throw new Error('unclosed attribute');
        const raw = text.slice(i + 1, end);
        if (raw.includes('<')) throw new Error(`< in an attribute at ${i}`);
        if (attr in el.attrs) throw new Error(`duplicate attribute ${attr}`);
        el.attrs[attr] = decodeXml(raw, i);
        i = end + 1;
      }
    } else {
      const next = text.indexOf('<', i);
      const raw = text.slice(i, next < 0 ? text.length : next);
      if (raw.includes(']]>')) throw new Error(`]]> in text at ${i}`);
      const decoded = decodeXml(raw, i);
      if (stack.length === 1 && decoded.trim() !== '') throw new Error(`text outside the document element at ${i}`);
      if (stack.length > 1) stack.at(-1)!.children.push(decoded);
      i = next < 0 ? text.length : next;
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  const elements = root.children.filter((c): c is XmlElement => typeof c !== 'string');
  if (elements.length !== 1) throw new Error('not exactly one document element');
  return elements[0]!;
}

/** Every element named `name` under `el`, depth first. */
export function elementsNamed(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    out.push(...elementsNamed(c, name));
  }
  return out;
}

/** An element's text; throws if it holds elements (a name or value must be text only). */
export function textOf(el: XmlElement): string {
  return el.children
    .map((c) => {
      if (typeof c !== 'string') throw new Error(`<${el.name}> holds an element <${c.name}>`);
      return c;
    })
    .join('');
}

export interface HtmlTag {
  name: string;
  end: boolean;
  /** Attribute names (lower case) to their raw values ('' without one). */
  attrs: Record<string, string>;
}

/**
 * The tags an HTML parser would see in `html` (WHATWG tokenizer: `<` + ASCII letter opens a start
 * tag, `</` + letter an end tag, `<!` and `<?` a comment or declaration), with their attribute
 * names, and the text between them with character references decoded.
 */
export function htmlTokens(html: string): { tags: HtmlTag[]; text: string } {
  const tags: HtmlTag[] = [];
  let text = '';
  let i = 0;
  while (i < html.length) {
    const c = html[i]!;
    if (c === '<' && /[A-Za-z]/.test(html[i + 1] ?? '')) {
      // Tag name, then attributes: name [= "value" | 'value' | value], separated by whitespace or /.
      i++;
      let name = '';
      while (i < html.length && !/[\s/>]/.test(html[i]!)) name += html[i++];
      const attrs: Record<string, string> = {};
      for (;;) {
        while (i < html.length && /[\s/]/.test(html[i]!)) i++;
        if (i >= html.length || html[i] === '>') break;
        let attr = html[i++]!; // a first '=' belongs to the name
        while (i < html.length && !/[\s/>=]/.test(html[i]!)) attr += html[i++];
        attrs[attr.toLowerCase()] = '';
        while (i < html.length && /\s/.test(html[i]!)) i++;
        if (html[i] !== '=') continue;
        i++;
        while (i < html.length && /\s/.test(html[i]!)) i++;
        const q = html[i];
        const from = q === '"' || q === "'" ? i + 1 : i;
        if (q === '"' || q === "'") {
          const end = html.indexOf(q, i + 1);
          i = end < 0 ? html.length : end + 1;
        } else while (i < html.length && !/[\s>]/.test(html[i]!)) i++;
        attrs[attr.toLowerCase()] = html.slice(from, q === '"' || q === "'" ? i - 1 : i);
      }
      tags.push({ name: name.toLowerCase(), end: false, attrs });
      i++;
    } else if (c === '<' && html[i + 1] === '/' && /[A-Za-z]/.test(html[i + 2] ?? '')) {
      const end = html.indexOf('>', i);
      tags.push({ name: html.slice(i + 2, end < 0 ? html.length : end).trim().toLowerCase(), end: true, attrs: {} });
      i = end < 0 ? html.length : end + 1;
    } else if (c === '<' && (html[i + 1] === '!' || html[i + 1] === '?')) {
      const end = html.indexOf('>', i);
      tags.push({ name: '!declaration', end: false, attrs: {} });
      i = end < 0 ? html.length : end + 1;
    } else {
      text += c;
      i++;
    }
  }
  const decoded = text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#39);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (e.toLowerCase() in named) return named[e.toLowerCase()]!;
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });
  return { tags, text: decoded };
}

/**
 * Rows of a CSV text read with `sep`, as a spreadsheet does: a field that starts with `"` is
 * quoted (`""` inside is one quote; what follows the closing quote up to the separator is kept),
 * a quote anywhere else is an ordinary character; CRLF or LF ends a row outside quotes.
 */
export function readCsv(text: string, sep: ',' | ';'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new Error('unclosed quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    }
    while (i < n && text[i] !== sep && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) field += text[i++];
    row.push(field);
    if (i >= n) break;
    if (text[i] === sep) {
      i++;
      if (i >= n) row.push('');
      continue;
    }
    i += text[i] === '\r' ? 2 : 1;
    rows.push(row);
    row = [];
  }
  if (row.length) rows.push(row);
  return rows;
}
