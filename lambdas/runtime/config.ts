import { resolve } from 'node:path';
import * as z from 'zod';
import { parseAllowedOrigins } from '../mcp/http/origin-policy.js';
import type { Environment } from './environment.js';
import { DATA_DIR_ENV, HTTP_HOST_ENV, HTTP_PORT_ENV } from './environment-names.js';
import { zoneProblem } from './zone-setting.js';

const port = z.coerce.number().int().min(0).max(65_535).describe('TCP port; 0 picks a free one');

export const EmbeddedConfig = z.object({
  dataDir: z.string().min(1),
  timezone: z.string().min(1).optional(),
  host: z.string().min(1),
  port,
  /** Browser origins `serve` answers besides loopback ones (see OriginPolicy). */
  allowedOrigins: z.array(z.string()),
  /**
   * Absolute folders whose project folders remote callers may have read (`serve --scan-folder`);
   * empty: only the local owner's calls read folders on this machine.
   */
  scanFolders: z.array(z.string().min(1)),
});
export type EmbeddedConfig = z.infer<typeof EmbeddedConfig>;

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = '.meridian';

/** Flags given on the command line; each overrides its environment variable. */
export interface ConfigFlags {
  dataDir?: string | undefined;
  timezone?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
  allowedOrigins?: string | undefined;
  /** `--scan-folder DIR`, once per folder. */
  scanFolders?: readonly string[] | undefined;
}

/**
 * The embedded runtime's configuration: flags first, then the parsed environment
 * (`MERIDIAN_DATA_DIR`, `MERIDIAN_TIMEZONE`, `HTTP_HOST`, `HTTP_PORT`, `MERIDIAN_ALLOWED_ORIGINS`,
 * `MERIDIAN_SCAN_FOLDERS`, see environment.ts), then defaults. Throws with a message naming the
 * variable or flag to fix; an unknown zone is refused at start-up rather than on first use.
 *
 * @example
 * loadEmbeddedConfig(parseEnvironment({ HTTP_PORT: '9000' }), {}).port; // 9000
 */
export function loadEmbeddedConfig(
  environment: Environment,
  flags: ConfigFlags,
  cwd = process.cwd(),
): EmbeddedConfig {
  const timezone = emptyToUndefined(flags.timezone) ?? environment.timezone;
  const candidate = {
    dataDir: resolve(cwd, flags.dataDir ?? environment.dataDir ?? DEFAULT_DATA_DIR),
    timezone,
    host: flags.host ?? environment.host ?? DEFAULT_HOST,
    port: flags.port ?? environment.port ?? DEFAULT_PORT,
    allowedOrigins:
      flags.allowedOrigins === undefined
        ? environment.allowedOrigins
        : parseAllowedOrigins(flags.allowedOrigins, '--allowed-origins'),
    scanFolders: (flags.scanFolders?.length ? flags.scanFolders : environment.scanFolders).map((folder) =>
      resolve(cwd, folder),
    ),
  };
  const parsed = EmbeddedConfig.safeParse(candidate);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(
      `Invalid configuration (${problems}). Check --port/${HTTP_PORT_ENV}, --host/${HTTP_HOST_ENV}, --data-dir/${DATA_DIR_ENV}.`,
    );
  }
  // The environment's zone is checked by parseEnvironment; a flag's the same way here.
  const problem =
    flags.timezone === undefined || timezone === undefined ? undefined : zoneProblem('--timezone', timezone);
  if (problem) throw new Error(problem);
  return parsed.data;
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
