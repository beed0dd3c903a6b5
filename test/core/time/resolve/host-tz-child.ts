/**
 * Run by host-tz.test.ts in a child process with a different TZ: resolves the whole corpus and
 * prints the host's UTC offset (as Date sees it) and every resolved_local as JSON on stdout.
 */
import { resolveDatetime } from '../../../../lambdas/core/time/resolve/resolve-datetime.js';
import { RESOLVE_CORPUS } from './corpus.js';
import { frozenAt, withDefaults } from './helpers.js';

const resolved = RESOLVE_CORPUS.map(withDefaults).map(
  ({ expression, zone, reference }) =>
    resolveDatetime(frozenAt(reference), { expression, timezone: zone }).resolved_local,
);
process.stdout.write(
  JSON.stringify({ hostOffset: new Date('2026-02-20T15:30:00Z').getTimezoneOffset(), resolved }),
);
