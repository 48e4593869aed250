/**
 * The JUnit schema Jenkins reads (the xunit plugin's junit-10.xsd), as rules over a document read
 * by the strict XML reader: which elements may hold which, the attributes each allows and needs,
 * and the pattern of `time`. The problems of a document, or none: the JUnit reports' tests run it
 * on what evalgate writes.
 */
import type { XmlNode } from "./xmlReader.js";

interface ElementRule {
  attributes: readonly string[];
  required?: readonly string[];
  /** Child elements it may hold; undefined: none (text only). */
  children?: readonly string[];
  /** Text besides its children (the schema's mixed content). */
  text?: boolean;
}

const OUTCOME: ElementRule = { attributes: ["type", "message"], text: true };
const RERUN: ElementRule = {
  attributes: ["message", "type"],
  required: ["type"],
  children: ["stackTrace", "system-out", "system-err"],
  text: true,
};
const TEXT: ElementRule = { attributes: [], text: true };

const RULES: Readonly<Record<string, ElementRule>> = {
  testsuites: {
    attributes: ["name", "time", "tests", "failures", "errors"],
    children: ["testsuite"],
  },
  testsuite: {
    attributes: [
      ...["name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp"],
      ...["hostname", "id", "package", "file", "log", "url"],
    ],
    required: ["name", "tests", "failures", "errors"],
    children: ["testsuite", "properties", "testcase", "system-out", "system-err"],
  },
  properties: { attributes: [], children: ["property"] },
  property: { attributes: ["name", "value"], required: ["name", "value"] },
  testcase: {
    attributes: ["name", "time", "classname", "group"],
    required: ["name"],
    children: [
      ...["skipped", "error", "failure", "rerunFailure", "rerunError"],
      ...["flakyFailure", "flakyError", "system-out", "system-err"],
    ],
  },
  failure: OUTCOME,
  error: OUTCOME,
  skipped: OUTCOME,
  rerunFailure: RERUN,
  rerunError: RERUN,
  flakyFailure: RERUN,
  flakyError: RERUN,
  stackTrace: TEXT,
  "system-out": TEXT,
  "system-err": TEXT,
};

/** The schema's SUREFIRE_TIME: digits (with thousands commas) and an optional fraction. */
const SUREFIRE_TIME = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$/;

function problemsOf(node: XmlNode, where: string): string[] {
  const rule = RULES[node.name];
  if (rule === undefined) return [`${where}: <${node.name}> is not in the schema`];
  const problems: string[] = [];
  for (const attribute of Object.keys(node.attributes)) {
    if (!rule.attributes.includes(attribute)) {
      problems.push(`${where}: <${node.name}> has no attribute "${attribute}" in the schema`);
    }
  }
  for (const needed of rule.required ?? []) {
    if (!(needed in node.attributes)) problems.push(`${where}: <${node.name}> needs "${needed}"`);
  }
  const time = node.attributes.time;
  if (time !== undefined && ["testsuites", "testsuite"].includes(node.name)) {
    if (!SUREFIRE_TIME.test(time)) problems.push(`${where}: time "${time}" is not SUREFIRE_TIME`);
  }
  if (rule.text !== true && node.text.trim() !== "") {
    problems.push(`${where}: <${node.name}> holds text`);
  }
  node.children.forEach((child, index) => {
    const at = `${where}/${child.name}[${index}]`;
    if (!(rule.children ?? []).includes(child.name)) {
      problems.push(`${at}: <${node.name}> may not hold <${child.name}>`);
    } else problems.push(...problemsOf(child, at));
  });
  return problems;
}

/** The ways the document breaks Jenkins' JUnit schema; empty when it fits. */
export function junitSchemaProblems(root: XmlNode): string[] {
  if (root.name !== "testsuites" && root.name !== "testsuite") {
    return [`the root is <${root.name}>, not <testsuites> or <testsuite>`];
  }
  return problemsOf(root, root.name);
}
