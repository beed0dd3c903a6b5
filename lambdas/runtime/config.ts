import { delimiter, resolve } from 'node:path';
import { z } from 'zod';
import { requireZone } from '../core/time/zones.js';
import { parseAllowedOrigins } from '../mcp/http/origin-policy.js';
import {
  ALLOWED_ORIGINS_ENV,
  DATA_DIR_ENV,
  HTTP_HOST_ENV,
  HTTP_PORT_ENV,
  SCAN_FOLDERS_ENV,
  TIMEZONE_ENV,
} from './environment-names.js';

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
 * Reads the embedded runtime's configuration: flags first, then `MERIDIAN_DATA_DIR`,
 * `MERIDIAN_TIMEZONE`, `HTTP_HOST`, `HTTP_PORT`, `MERIDIAN_ALLOWED_ORIGINS`, `MERIDIAN_SCAN_FOLDERS`, then defaults. Throws with a message naming the
 * variable or flag to fix; an unknown zone is refused at start-up rather than on first use.
 *
 * @example
 * loadEmbeddedConfig({ HTTP_PORT: '9000' }, {}).port; // 9000
 */
export function loadEmbeddedConfig(
  env: NodeJS.ProcessEnv,
  flags: ConfigFlags,
  cwd = process.cwd(),
): EmbeddedConfig {
  const candidate = {
    dataDir: resolve(cwd, flags.dataDir ?? env[DATA_DIR_ENV] ?? DEFAULT_DATA_DIR),
    timezone: emptyToUndefined(flags.timezone ?? env[TIMEZONE_ENV]),
    host: flags.host ?? env[HTTP_HOST_ENV] ?? DEFAULT_HOST,
    port: flags.port ?? env[HTTP_PORT_ENV] ?? DEFAULT_PORT,
    allowedOrigins:
      flags.allowedOrigins === undefined
        ? parseAllowedOrigins(env[ALLOWED_ORIGINS_ENV], ALLOWED_ORIGINS_ENV)
        : parseAllowedOrigins(flags.allowedOrigins, '--allowed-origins'),
    scanFolders: (flags.scanFolders?.length ? flags.scanFolders : splitPathList(env[SCAN_FOLDERS_ENV])).map(
      (folder) => resolve(cwd, folder),
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
  if (parsed.data.timezone !== undefined) requireZone(parsed.data.timezone, TIMEZONE_ENV);
  return parsed.data;
}

/** A PATH-like list (`:` on POSIX): empty entries dropped. */
function splitPathList(value: string | undefined): string[] {
  return (value ?? '').split(delimiter).filter((entry) => entry.trim() !== '');
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
