import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../lambdas/core/rules/parse-query.js';
import { RULE_PROPERTIES } from '../../../lambdas/core/rules/rule-properties.js';
import { rulesSyntaxMarkdown } from '../../../lambdas/core/rules/syntax-docs.js';

describe('rulesSyntaxMarkdown', () => {
  const markdown = rulesSyntaxMarkdown();

  it('documents every property with an example the parser accepts', () => {
    for (const property of RULE_PROPERTIES) {
      expect(markdown).toContain(`| \`${property.name}\` |`);
      expect(() => parseQuery(property.example)).not.toThrow();
    }
  });

  it('states the precedence the parser implements', () => {
    expect(markdown).toContain('`title:a OR title:b domain:x.com` means `(title:a OR title:b) domain:x.com`');
    expect(parseQuery('title:a OR title:b domain:x.com')).toEqual(
      parseQuery('(title:a OR title:b) domain:x.com'),
    );
  });

  it('parses every query quoted in backticks that looks like a rule', () => {
    const quoted = [...markdown.matchAll(/`([a-z-]+:[^`]+)`/g)]
      .map((m) => m[1]!)
      .filter((q) => !q.includes('→'));
    expect(quoted.length).toBeGreaterThan(15);
    for (const query of quoted) expect(() => parseQuery(query), query).not.toThrow();
  });
});
