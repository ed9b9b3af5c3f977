/**
 * XML text helpers: escaping for element text and attribute values, a reversible mapping
 * from JSON property names to XML element names, and decoding of the character references
 * XML allows without a DTD.
 */

/** Characters XML 1.0 cannot carry at all, not even as a character reference. */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes element text. Characters XML cannot carry become U+FFFD. */
export function escapeText(value: string): string {
  return value
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes a double-quoted attribute value (whitespace kept as character references). */
export function escapeAttr(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_.-]/;

/**
 * Maps a JSON property name to an XML NCName. ASCII letters, digits, `_`, `.` and `-` are kept
 * where XML allows them; every other UTF-16 unit (and a `_` that would start `_xHHHH_`) is
 * written `_xHHHH_`, the convention .NET and Java tools already use. The mapping is injective,
 * so two property names never share an element name.
 */
export function xmlName(jsonName: string): string {
  if (jsonName === '') return '_x_';
  let out = '';
  for (let i = 0; i < jsonName.length; i += 1) {
    const ch = jsonName[i] as string;
    const allowed = i === 0 ? NAME_START.test(ch) : NAME_CHAR.test(ch);
    const startsEscape = ch === '_' && /^_x[0-9A-Fa-f]{4}_/.test(jsonName.slice(i));
    if (allowed && !startsEscape) {
      out += ch;
    } else {
      out += `_x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`;
    }
  }
  return out;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes the five predefined entities and numeric character references. Any other entity
 * reference needs a DTD, which this door never processes, so it is reported as an error.
 */
export function decodeReferences(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  if (!raw.includes('&')) return { ok: true, value: raw };
  let failure: string | undefined;
  const value = raw.replace(/&([^;&\s]{0,32});/g, (whole: string, ref: string) => {
    const named = PREDEFINED[ref];
    if (named !== undefined && Object.prototype.hasOwnProperty.call(PREDEFINED, ref)) return named;
    const numeric = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(ref);
    if (numeric !== null) {
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2] as string, 10);
      if (code <= 0x10ffff && isXmlCodePoint(code)) return String.fromCodePoint(code);
      failure ??= `character reference ${whole} is not a legal XML character`;
      return whole;
    }
    failure ??= `entity reference ${whole} is not allowed: only &lt; &gt; &amp; &quot; &apos; and numeric references are accepted (no DTD is processed)`;
    return whole;
  });
  if (failure === undefined && /&(?![^;&\s]{0,32};)/.test(raw)) {
    failure = "a bare '&' must be written &amp;";
  }
  return failure === undefined ? { ok: true, value } : { ok: false, message: failure };
}

function isXmlCodePoint(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
