import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { needs, PYTHON, PYTHON_DATEUTIL } from '../../../support/system-parts.js';
import { RESOLVE_CORPUS } from './corpus.js';
import { withDefaults } from './helpers.js';

// An independent check of the corpus itself: Python's zoneinfo confirms that every expected
// local time exists in its zone with exactly the offset written (e.g. no "-05:00" in July).
const CHECK = `
import json, sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo
bad = []
for zone, text in json.load(sys.stdin):
    z = ZoneInfo(zone)
    written = datetime.fromisoformat(text)
    real = written.astimezone(z)
    if real.replace(tzinfo=None) != written.replace(tzinfo=None) or real.utcoffset() != written.utcoffset():
        bad.append([zone, text, real.isoformat()])
print(json.dumps(bad))
`;

describe('resolve corpus', () => {
  it('writes every expected time with the offset zoneinfo gives it', needs(PYTHON_DATEUTIL), () => {
    const cases = RESOLVE_CORPUS.map(withDefaults).map((c) => [c.zone, c.expected]);
    const output = execFileSync(PYTHON, ['-c', CHECK], { input: JSON.stringify(cases) }).toString();
    expect(JSON.parse(output)).toEqual([]);
  });
});
