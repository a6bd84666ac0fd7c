// Just enough XML writing for the feeds: escaped text and attributes, and dates in the two formats feeds use.
//
// Why not a feed builder package: the usual one (`feed`) passes characters XML 1.0 forbids (control characters,
// lone surrogates) straight into the document, so one hostile post would make a whole feed unparseable; it
// also stamps the build time into every document (no stable ETag), emits RSS <author> without the e-mail
// the spec requires, keeps one enclosure per item, and writes JSON Feed 1.0. Three serializers over one model
// are shorter than the workarounds.

/** Characters outside the XML 1.0 Char production are dropped (a control character would end the parse). */
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const XML_ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for element content and for attributes (quotes escaped either way). */
export function xml(s: string): string {
  return s.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (c) => XML_ESC[c]!);
}

/** `<name attrs>text</name>`, escaped; nothing when the text is undefined. */
export function el(name: string, text: string | undefined, attrs: Record<string, string> = {}): string {
  if (text === undefined) return '';
  return `<${name}${attrString(attrs)}>${xml(text)}</${name}>`;
}

/** An empty element with escaped attributes. */
export function empty(name: string, attrs: Record<string, string>): string {
  return `<${name}${attrString(attrs)}/>`;
}

function attrString(attrs: Record<string, string>): string {
  return Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${xml(v)}"`)
    .join('');
}

function date(iso: string | undefined): Date {
  const t = iso === undefined ? NaN : Date.parse(iso);
  return new Date(Number.isFinite(t) ? t : 0);
}

/** RFC 822 date-time as RSS 2.0 wants it (e.g. `Mon, 02 Mar 2026 09:00:00 GMT`); also an HTTP-date. */
export function rfc822(iso: string | undefined): string {
  return date(iso).toUTCString();
}

/** RFC 3339 date-time for Atom and JSON Feed, without milliseconds. */
export function rfc3339(iso: string | undefined): string {
  return date(iso)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}
