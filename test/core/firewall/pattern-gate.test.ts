import { describe, expect, it } from 'vitest';
import { FIREWALL_RULES } from '../../../lambdas/core/firewall/inspect-text.js';
import { buildViews } from '../../../lambdas/core/firewall/match-views.js';
import { gatedPatterns, widenedSource } from '../../../lambdas/core/firewall/pattern-gate.js';
import { sanitizeText } from '../../../lambdas/core/firewall/sanitize-text.js';
import { ORDINARY as ORDINARY_CONFIG_AND_CODE } from '../memory/secret-corpus.js';
import { ATTACKS } from './attacks.js';
import { ORDINARY } from './ordinary.js';

// The gate skips a view's patterns only when their widened, joined form finds nothing; that is
// sound only if each widened pattern matches wherever the pattern itself does. The corpus tests
// check the verdicts; this checks every pattern, including those no corpus text reaches first.
describe('the pattern gate', () => {
  it('drops lookarounds and nothing else', () => {
    expect(widenedSource(String.raw`(?<!not (?:\w+ ){0,2})\bignore\b(?! me)(?=[.)])x`)).toBe(
      String.raw`\bignore\bx`,
    );
    expect(widenedSource(String.raw`[(?=]a\)(?<name>b)`)).toBe(String.raw`[(?=]a\)(?<name>b)`);
    expect(widenedSource(String.raw`(a)\1`)).toBeUndefined();
  });

  it('widens every rule pattern to one that matches wherever the pattern does, on the whole corpus', () => {
    expect(FIREWALL_RULES.length).toBeGreaterThan(0);
    const patterns = gatedPatterns();
    expect(patterns.length).toBeGreaterThan(80);
    const texts = [...ATTACKS.map((a) => a.text), ...ORDINARY, ...ORDINARY_CONFIG_AND_CODE];
    const views = texts.map((text) => buildViews(sanitizeText(text).text));
    const missed: string[] = [];
    let matched = 0;
    for (const { view, re } of patterns) {
      const widened = new RegExp(widenedSource(re.source)!, re.flags);
      for (const v of views) {
        if (!re.test(v[view])) continue;
        matched += 1;
        if (!widened.test(v[view])) missed.push(`${re.source.slice(0, 60)} on ${v.raw.slice(0, 40)}`);
      }
    }
    expect(matched).toBeGreaterThan(100);
    expect(missed).toEqual([]);
  });
});
