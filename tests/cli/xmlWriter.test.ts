/** The reports' XML writer: what it escapes and removes, read back by a strict reader. */
import { describe, expect, it } from "vitest";
import {
  escapeXmlAttribute,
  escapeXmlText,
  removeForbiddenXmlChars,
  renderXmlDocument,
} from "../../src/cli/report/xml.js";
import { readXml } from "./xmlReader.js";

const HOSTILE = [
  "]]>",
  "<![CDATA[x]]>",
  '<script>alert("x")</script>',
  "&amp; already escaped &",
  "'single' \"double\"",
  "tab\there\nnew line\r\ncarriage",
  "bell\u0007 escape\u001b null\u0000 del\u007f",
  "lone high \uD800 lone low \uDC00 pair \u{1F600}",
  "noncharacters \uFFFE\uFFFF end",
  "--> <!-- comment -->",
  "<?xml version='1.0'?>",
];

describe("the XML writer", () => {
  it("escapes &, <, > in text and &, <, >, \", ' in attributes", () => {
    expect(escapeXmlText(`a & b < c > d "e" 'f'`)).toBe(`a &amp; b &lt; c &gt; d "e" 'f'`);
    expect(escapeXmlAttribute(`a & b < c > d "e" 'f'`)).toBe(
      "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;",
    );
    expect(escapeXmlText("x]]>y")).toBe("x]]&gt;y");
  });

  it("removes the characters XML 1.0 forbids and keeps tab, newline, carriage return and astral characters", () => {
    expect(removeForbiddenXmlChars("a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg")).toBe("abcdefg");
    expect(removeForbiddenXmlChars("\t\n\r")).toBe("\t\n\r");
    expect(removeForbiddenXmlChars("x\uD800y\uDFFFz")).toBe("xyz");
    expect(removeForbiddenXmlChars("\uFFFE\uFFFFok")).toBe("ok");
    expect(removeForbiddenXmlChars("smile \u{1F600}")).toBe("smile \u{1F600}");
    // U+007F and U+0085 are allowed by XML 1.0 (discouraged, not forbidden).
    expect(removeForbiddenXmlChars("\u007f\u0085")).toBe("\u007f\u0085");
  });

  it("writes hostile text and attributes that a strict reader reads back as given, less the forbidden characters", () => {
    const document = renderXmlDocument({
      name: "root",
      attributes: HOSTILE.map((value, index) => [`a${index}`, value] as const),
      children: HOSTILE.map((value) => ({ name: "item", children: [value] })),
    });
    const root = readXml(document);
    expect(root.children).toHaveLength(HOSTILE.length);
    HOSTILE.forEach((value, index) => {
      const expected = removeForbiddenXmlChars(value);
      expect(root.attributes[`a${index}`]).toBe(expected);
      expect(root.children[index]?.text).toBe(expected);
    });
    expect(document).not.toContain("<script>");
    expect(document).not.toMatch(/]]>/);
    expect(document).not.toContain("\u0000");
  });

  it("nests elements, closes empty ones, and refuses a name that is not an XML name", () => {
    const document = renderXmlDocument({
      name: "a",
      children: [
        { name: "b", attributes: [["n", 3]] },
        { name: "c", children: ["t"] },
      ],
    });
    expect(document).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<a>\n  <b n="3"/>\n  <c>t</c>\n</a>\n',
    );
    expect(() => renderXmlDocument({ name: "x y" })).toThrow(/not an XML name/);
    expect(() => renderXmlDocument({ name: "a", attributes: [['b="1" c', "v"]] })).toThrow(
      /not an XML name/,
    );
  });

  it("the test's reader refuses what is not well-formed (so that reading back proves something)", () => {
    const declared = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
    expect(() => readXml(declared("<a>x ]]> y</a>"))).toThrow(/]]>/);
    expect(() => readXml(declared("<a>x & y</a>"))).toThrow(/bare &/);
    expect(() => readXml(declared('<a b="<"/>'))).toThrow(/raw </);
    expect(() => readXml(declared("<a><b></a>"))).toThrow(/mismatched/);
    expect(() => readXml(declared("<a>\u0001</a>"))).toThrow(/forbids/);
    expect(() => readXml(declared('<a b="1" b="2"/>'))).toThrow(/twice/);
    expect(() => readXml(declared("<a><![CDATA[x]]></a>"))).toThrow(/expected an element/);
  });
});
