/**
 * A small XML 1.0 writer: text escaped and the characters XML forbids removed, so untrusted result
 * text can never open markup or make the document unreadable.
 */

/** An element: its name, its attributes in order, and its children (elements or text). */
export interface XmlElement {
  name: string;
  attributes?: ReadonlyArray<readonly [string, string | number]>;
  children?: ReadonlyArray<XmlElement | string>;
}

/** Every character XML 1.0 forbids (the complement of its Char production). */
const FORBIDDEN_CHARS =
  /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\uD800-\uDFFF]|[\uFFFE\uFFFF]/gu;

/** What XML names may be: the report writes only its own fixed names, checked here. */
const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function removeForbiddenXmlChars(text: string): string {
  return text.replace(FORBIDDEN_CHARS, "");
}

/** Text content: &, < and > escaped (">" too, so that "]]>" never appears). */
export function escapeXmlText(text: string): string {
  return removeForbiddenXmlChars(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** Tab, newline and carriage return as references, so attribute normalisation keeps them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

function checkedName(name: string): string {
  if (!XML_NAME.test(name)) throw new Error(`not an XML name: ${JSON.stringify(name)}`);
  return name;
}

function writeElement(element: XmlElement, indent: string, out: string[]): void {
  const attributes = (element.attributes ?? [])
    .map(([key, value]) => ` ${checkedName(key)}="${escapeXmlAttribute(String(value))}"`)
    .join("");
  const open = `${indent}<${checkedName(element.name)}${attributes}`;
  const children = element.children ?? [];
  if (children.length === 0) {
    out.push(`${open}/>`);
    return;
  }
  if (children.every((child) => typeof child === "string")) {
    out.push(`${open}>${children.map(escapeXmlText).join("")}</${element.name}>`);
    return;
  }
  out.push(`${open}>`);
  for (const child of children) {
    if (typeof child === "string") out.push(`${indent}  ${escapeXmlText(child)}`);
    else writeElement(child, `${indent}  `, out);
  }
  out.push(`${indent}</${element.name}>`);
}

/** The whole document: the XML declaration (UTF-8), then the root element, indented. */
export function renderXmlDocument(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  writeElement(root, "", out);
  return `${out.join("\n")}\n`;
}
