import { describe, expect, it } from 'vitest';
import {
  redactionMarker,
  redactSecrets,
  SECRET_KINDS,
} from '../../../lambdas/core/memory/store/redact-secrets.js';
import { ORDINARY, SECRETS } from './secret-corpus.js';

const shown = (text: string) => JSON.stringify(text.length > 90 ? `${text.slice(0, 87)}...` : text);

describe('redactSecrets', () => {
  describe('the corpus', () => {
    it('holds at least 60 secrets and 60 ordinary texts, without duplicates', () => {
      expect(SECRETS.length).toBeGreaterThanOrEqual(60);
      expect(ORDINARY.length).toBeGreaterThanOrEqual(60);
      expect(new Set(SECRETS.map((s) => s.text)).size).toBe(SECRETS.length);
      expect(new Set(ORDINARY).size).toBe(ORDINARY.length);
    });

    it('has at least one secret of every kind', () => {
      const covered = new Set(SECRETS.flatMap((s) => s.kinds));

      expect(SECRET_KINDS.filter((kind) => !covered.has(kind))).toEqual([]);
    });
  });

  describe('secrets', () => {
    it.each(SECRETS.map((sample) => [shown(sample.text), sample] as const))(
      'redacts %s',
      (_, { text, kinds, keeps = [] }) => {
        const result = redactSecrets(text);

        expect([...new Set(result.redactions.map((r) => r.kind))].sort()).toEqual([...new Set(kinds)].sort());
        for (const kind of kinds) expect(result.text).toContain(redactionMarker(kind));
        for (const kept of keeps) expect(result.text).toContain(kept);
        // No tail of a long token is left behind: what remains has no run of 24 token characters
        // that is not part of the context the sample says to keep.
        const unmarked = result.text.replace(/\[REDACTED:[a-z-]+\]/g, ' ');
        const leftovers = (unmarked.match(/[A-Za-z0-9+/_-]{24,}/g) ?? []).filter(
          (run) => !keeps.some((kept) => kept.includes(run)),
        );
        expect(leftovers).toEqual([]);
      },
    );

    it('leaves nothing more to redact in its own output', () => {
      for (const { text } of SECRETS) {
        const once = redactSecrets(text).text;

        expect(redactSecrets(once)).toEqual({ text: once, redactions: [] });
      }
    });

    it.each([
      ['a zero-width space', '\u200B'],
      ['a soft hyphen', '\u00AD'],
      ['a tag character', '\u{E0041}'],
      ['a bidi override', '\u202E'],
    ])('finds a secret split by %s, and stores the text without it', (_, hidden) => {
      const result = redactSecrets(`key AKIA${hidden}IOSFODNN7EXAMPLE and ghp_${hidden}${'a'.repeat(36)}`);

      expect(result.text).toBe('key [REDACTED:aws-access-key-id] and [REDACTED:github-token]');
    });

    it('counts each secret of a text', () => {
      const text = 'DB_PASSWORD=alpha-123\nCACHE_PASSWORD=beta-456\nredis://:gamma-789@cache:6379';

      expect(redactSecrets(text)).toEqual({
        text:
          'DB_PASSWORD=[REDACTED:secret-assignment]\nCACHE_PASSWORD=[REDACTED:secret-assignment]\n' +
          'redis://:[REDACTED:url-password]@cache:6379',
        redactions: [
          { kind: 'secret-assignment', count: 2 },
          { kind: 'url-password', count: 1 },
        ],
      });
    });
  });

  describe('cost', () => {
    it.each(['a.', 'a-', 'a+', 'password=', 'http://u:'])(
      'stays linear on 100 kB of %j repeated (a backtracking pattern took 30 s here)',
      (unit) => {
        const text = unit.repeat(Math.ceil(100_000 / unit.length));

        const started = performance.now();
        redactSecrets(text);

        expect(performance.now() - started).toBeLessThan(2_000);
      },
    );
  });

  describe('ordinary text', () => {
    it.each(ORDINARY.map((text) => [shown(text), text] as const))('keeps %s unchanged', (_, text) => {
      expect(redactSecrets(text)).toEqual({ text, redactions: [] });
    });
  });
});
