/**
 * A strict reader of the XML the reports write, for the tests: one root element, elements,
 * attributes in double quotes and text; no comments, CDATA, doctype or processing instructions
 * after the declaration. It throws on anything XML 1.0 does not allow (a raw "<" or "&" where it
 * cannot be, "]]>" in text, a forbidden character, a mismatched or unclosed tag, a repeated
 * attribute), so a document it reads is well-formed.
 */

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  /** The element's own text, references decoded. */
  text: string;
}

const ALLOWED = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

function decodeReferences(raw: string, where: string): string {
  return raw.replace(/&([^;]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(";")) throw new Error(`a bare & in ${where}`);
    if (body in ENTITIES) return ENTITIES[body] as string;
    const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(body);
    if (numeric === null) throw new Error(`unknown reference &${body}; in ${where}`);
    const code = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
    const char = String.fromCodePoint(code);
    if (!ALLOWED.test(char)) throw new Error(`a reference to a forbidden character in ${where}`);
    return char;
  });
}

class Reader {
  position = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new Error(`${what} at offset ${this.position}`);
  }

  name(): string {
    const match = NAME.exec(this.text.slice(this.position));
    if (match === null) this.fail("expected a name");
    this.position += match[0].length;
    return match[0];
  }

  skipSpace(): void {
    while (/\s/.test(this.text[this.position] ?? "")) this.position += 1;
  }

  attributes(element: string): Record<string, string> {
    const attributes: Record<string, string> = {};
    for (;;) {
      this.skipSpace();
      const next = this.text[this.position];
      if (next === ">" || next === "/") return attributes;
      const key = this.name();
      if (key in attributes) this.fail(`attribute ${key} twice`);
      if (this.text.slice(this.position, this.position + 2) !== '="') this.fail('expected ="');
      const end = this.text.indexOf('"', this.position + 2);
      if (end < 0) this.fail("unclosed attribute value");
      const raw = this.text.slice(this.position + 2, end);
      if (raw.includes("<")) this.fail(`a raw < in attribute ${key}`);
      // Attribute-value normalisation: literal whitespace characters become spaces.
      const normalised = raw.replace(/[\t\n\r]/g, " ");
      attributes[key] = decodeReferences(normalised, `${element}@${key}`);
      this.position = end + 1;
    }
  }

  element(): XmlNode {
    if (this.text[this.position] !== "<") this.fail("expected <");
    this.position += 1;
    if (/[!?/]/.test(this.text[this.position] ?? "")) this.fail("expected an element");
    const name = this.name();
    const node: XmlNode = { name, attributes: this.attributes(name), children: [], text: "" };
    if (this.text.startsWith("/>", this.position)) {
      this.position += 2;
      return node;
    }
    this.position += 1;
    for (;;) {
      const next = this.text.indexOf("<", this.position);
      if (next < 0) this.fail(`unclosed <${name}>`);
      const raw = this.text.slice(this.position, next);
      if (raw.includes("]]>")) this.fail("]]> in text");
      node.text += decodeReferences(raw, `<${name}> text`);
      this.position = next;
      if (this.text.startsWith("</", next)) {
        this.position += 2;
        if (this.name() !== name) this.fail(`mismatched </…> for <${name}>`);
        if (this.text[this.position] !== ">") this.fail("expected >");
        this.position += 1;
        node.text = node.children.length > 0 ? node.text.trim() : node.text;
        return node;
      }
      node.children.push(this.element());
    }
  }
}

/** Reads a whole document: the declaration, one root element, nothing but whitespace after. */
export function readXml(text: string): XmlNode {
  if (!ALLOWED.test(text)) throw new Error("the document holds a character XML 1.0 forbids");
  if (!text.startsWith(DECLARATION)) throw new Error("no UTF-8 XML 1.0 declaration");
  const reader = new Reader(text);
  reader.position = DECLARATION.length;
  reader.skipSpace();
  const root = reader.element();
  reader.skipSpace();
  if (reader.position !== text.length) reader.fail("content after the root element");
  return root;
}

/** The children of `node` named `name`. */
export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((child) => child.name === name);
}
