/**
 * Runs test/fixtures/rrule_reference.py (python-dateutil + zoneinfo), an independent reference
 * for RRULE expansion and for placing wall-clock times in a zone.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PYTHON } from '../../../support/system-parts.js';

const SCRIPT = fileURLToPath(new URL('../../../fixtures/rrule_reference.py', import.meta.url));

export interface ReferenceCase {
  id: string;
  rrule: string;
  dtstart: string;
  timezone: string;
  duration_minutes?: number;
  count?: number;
  exdates?: string[];
  after?: string;
  before?: string;
}

export type ReferenceResult =
  | {
      instances: { start: string; end: string; local_start: string }[];
      truncated: boolean;
      next_after?: string;
    }
  /** dateutil refused the rule (ValueError), e.g. one that can never occur. */
  | { refused: string };

export interface ReferenceRequest {
  expand?: ReferenceCase[];
  convert?: { zone: string; wall: string }[];
}

export interface ReferenceResponse {
  expand: Record<string, ReferenceResult>;
  convert: string[];
}

export function runPythonReference(request: ReferenceRequest): ReferenceResponse {
  const run = spawnSync(PYTHON, [SCRIPT], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`rrule_reference.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ReferenceResponse;
}
