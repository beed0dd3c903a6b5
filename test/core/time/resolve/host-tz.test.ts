import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RESOLVE_CORPUS } from './corpus.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./host-tz-child.ts', import.meta.url));

// chrono-node computes with host-local Date methods; these runs prove none of that leaks into
// results. Kathmandu has a :45 offset; New York and London have DST gaps on corpus dates.
describe('resolveDatetime host time zone', () => {
  it.each([
    ['Asia/Kathmandu', -345],
    ['America/New_York', 300],
    ['Europe/London', 0],
  ])('resolves the whole corpus identically when the host TZ is %s', async (hostZone, hostOffset) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, TZ: hostZone },
    });
    const output = JSON.parse(stdout) as { hostOffset: number; resolved: string[] };
    expect(output.hostOffset).toBe(hostOffset);
    expect(output.resolved).toEqual(RESOLVE_CORPUS.map((c) => c.expected));
  });
});
