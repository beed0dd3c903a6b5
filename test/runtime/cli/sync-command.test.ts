import { describe, expect, it } from 'vitest';
import { isInteractive, progressLines } from '../../../lambdas/runtime/cli/sync-command.js';
import { parseEnvironment } from '../../../lambdas/runtime/environment.js';

describe('sync command', () => {
  describe('isInteractive', () => {
    it('draws bars on a terminal only, and never under CI', () => {
      expect(isInteractive({ isTTY: true }, parseEnvironment({}))).toBe(true);
      expect(isInteractive({ isTTY: true }, parseEnvironment({ CI: 'false' }))).toBe(true);
      expect(isInteractive({ isTTY: true }, parseEnvironment({ CI: 'true' }))).toBe(false);
      expect(isInteractive({ isTTY: true }, parseEnvironment({ CI: '1' }))).toBe(false);
      expect(isInteractive({ isTTY: false }, parseEnvironment({}))).toBe(false);
      expect(isInteractive({}, parseEnvironment({}))).toBe(false);
    });
  });

  describe('progressLines', () => {
    it('prints one numbered line as each calendar finishes, nothing for the steps between', () => {
      const lines: string[] = [];
      const view = progressLines({ line: (text) => lines.push(text), error: () => undefined });

      for (const id of ['a', 'b']) view.update({ calendar_id: id, phase: 'waiting', done: 0, total: 0 });
      view.update({ calendar_id: 'b', phase: 'fetching', done: 0, total: 0 });
      view.update({ calendar_id: 'b', phase: 'applying', done: 5, total: 10 });
      view.update({ calendar_id: 'b', phase: 'done', done: 10, total: 10 });
      view.update({ calendar_id: 'a', phase: 'failed', done: 0, total: 0 });

      expect(lines).toEqual(['[1/2] b done', '[2/2] a failed']);
    });
  });
});
