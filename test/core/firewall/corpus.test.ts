import { describe, expect, it } from 'vitest';
import { FIREWALL_RULES, inspectText } from '../../../lambdas/core/firewall/inspect-text.js';
import { ORDINARY as ORDINARY_CONFIG_AND_CODE } from '../memory/secret-corpus.js';
import { ATTACKS } from './attacks.js';
import { ORDINARY, ORDINARY_WITH_CONTROLS } from './ordinary.js';
import { visible } from './visible.js';

describe('content firewall corpus', () => {
  it('holds at least 60 attacks and 120 ordinary texts', () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(60);
    expect(ORDINARY.length + ORDINARY_WITH_CONTROLS.length).toBeGreaterThanOrEqual(120);
  });

  it('has no duplicate entries', () => {
    expect(new Set(ATTACKS.map((a) => a.text)).size).toBe(ATTACKS.length);
    expect(new Set(ORDINARY).size).toBe(ORDINARY.length);
  });

  it('exercises every rule with at least one attack', () => {
    const fired = new Set(ATTACKS.map((a) => a.rule));
    expect(FIREWALL_RULES.map((r) => r.id).filter((id) => !fired.has(id))).toEqual([]);
  });

  describe('attacks', () => {
    it.each(ATTACKS.map((attack) => [visible(attack.text), attack] as const))('rejects %s', (_, attack) => {
      const result = inspectText(attack.text, 'description');

      expect(result).toMatchObject({ ok: false, rule: attack.rule });
      expect(result.ok === false && result.reason).toMatch(/^The description .+ \(".+"\); .+\.$/s);
    });
  });

  describe('ordinary text', () => {
    it.each(ORDINARY.map((text) => [visible(text), text] as const))('accepts %s unchanged', (_, text) => {
      expect(inspectText(text, 'description')).toEqual({ ok: true, text });
    });

    // Memory holds code, config and notes (the redaction corpus' ordinary texts): none reads as an attack.
    it.each(ORDINARY_CONFIG_AND_CODE.map((text) => [visible(text), text] as const))(
      'accepts the memory note %s',
      (_, text) => {
        expect(inspectText(text, 'content')).toMatchObject({ ok: true });
      },
    );

    it.each(ORDINARY_WITH_CONTROLS.map((entry) => [visible(entry.text), entry] as const))(
      'accepts %s with its control characters removed',
      (_, { text, sanitized }) => {
        expect(inspectText(text, 'description')).toEqual({ ok: true, text: sanitized });
      },
    );
  });
});
