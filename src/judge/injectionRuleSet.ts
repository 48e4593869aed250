/** All injection rules, in the order the scan runs them. */
import { keywordGroups } from "./injectionKeywords.js";
import { ENGLISH_RULES, type InjectionRule } from "./injectionRules.js";
import { DIRECTIVE_RULES } from "./injectionRulesDirectives.js";
import { FOREIGN_RULES } from "./injectionRulesForeign.js";
import { FORGED_RULES } from "./injectionRulesForged.js";
import { STRUCTURAL_RULES } from "./injectionRulesStructural.js";

export const INJECTION_RULES: readonly InjectionRule[] = [
  ...ENGLISH_RULES,
  ...FORGED_RULES,
  ...FOREIGN_RULES,
  ...STRUCTURAL_RULES,
  ...DIRECTIVE_RULES,
];

export const RULE_KEYWORDS: ReadonlyMap<string, ReadonlyArray<readonly string[]>> = new Map(
  INJECTION_RULES.flatMap((r) =>
    r.keywords === undefined ? [] : [[r.rule, keywordGroups(r.keywords)]],
  ),
);
