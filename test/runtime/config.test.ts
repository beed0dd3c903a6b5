import { describe, expect, it } from 'vitest';
import { type ConfigFlags, loadEmbeddedConfig } from '../../lambdas/runtime/config.js';
import { parseEnvironment } from '../../lambdas/runtime/environment.js';

/** The configuration `meridian` reads: the environment parsed once, then the flags over it. */
const load = (env: Record<string, string>, flags: ConfigFlags, cwd?: string) =>
  loadEmbeddedConfig(parseEnvironment(env), flags, cwd);

describe('loadEmbeddedConfig (over parseEnvironment)', () => {
  it('defaults to 127.0.0.1:8787 with data under ./.meridian, no zone, no browser origin, no scan folder', () => {
    expect(load({}, {}, '/srv/app')).toEqual({
      dataDir: '/srv/app/.meridian',
      host: '127.0.0.1',
      port: 8787,
      timezone: undefined,
      allowedOrigins: [],
      scanFolders: [],
    });
  });

  it('reads scan folders from MERIDIAN_SCAN_FOLDERS (a PATH-like list), and --scan-folder over it', () => {
    const env = { MERIDIAN_SCAN_FOLDERS: '/srv/checkouts::repos' };

    expect(load(env, {}, '/srv/app').scanFolders).toEqual(['/srv/checkouts', '/srv/app/repos']);
    expect(load(env, { scanFolders: ['/opt/work'] }, '/srv/app').scanFolders).toEqual(['/opt/work']);
  });

  it('reads allowed origins from MERIDIAN_ALLOWED_ORIGINS, and --allowed-origins over it', () => {
    const env = { MERIDIAN_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173/' };

    expect(load(env, {}).allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(load(env, { allowedOrigins: 'https://other.example.com' }).allowedOrigins).toEqual([
      'https://other.example.com',
    ]);
  });

  it.each([
    ['MERIDIAN_ALLOWED_ORIGINS', { MERIDIAN_ALLOWED_ORIGINS: 'app.example.com' }, {}],
    ['--allowed-origins', {}, { allowedOrigins: 'https://app.example.com/path' }],
    ['--allowed-origins', {}, { allowedOrigins: 'ftp://files.example.com' }],
  ])('refuses a value that is not an origin and names %s with an example', (source, env, flags) => {
    expect(() => load(env, flags)).toThrowError(
      new RegExp(`${source}.*not an origin.*https://app\\.example\\.com`),
    );
  });

  it('reads HTTP_PORT, MERIDIAN_DATA_DIR and MERIDIAN_TIMEZONE', () => {
    const config = load(
      { HTTP_PORT: '9001', MERIDIAN_DATA_DIR: 'state', MERIDIAN_TIMEZONE: 'Asia/Kathmandu' },
      {},
      '/srv/app',
    );

    expect(config).toMatchObject({ port: 9001, dataDir: '/srv/app/state', timezone: 'Asia/Kathmandu' });
  });

  it('lets flags override the environment', () => {
    const config = load(
      { HTTP_PORT: '9001', MERIDIAN_TIMEZONE: 'Asia/Kathmandu' },
      { port: '9002', timezone: 'Europe/London', dataDir: '/data' },
    );

    expect(config).toMatchObject({ port: 9002, timezone: 'Europe/London', dataDir: '/data' });
  });

  it('treats an empty MERIDIAN_TIMEZONE as unset', () => {
    expect(load({ MERIDIAN_TIMEZONE: '  ' }, {}).timezone).toBeUndefined();
  });

  it.each(['abc', '70000', '-1'])('refuses port %j and names the setting', (port) => {
    expect(() => load({ HTTP_PORT: port }, {})).toThrowError(/HTTP_PORT/);
  });

  it('refuses an unknown zone at start-up with suggestions', () => {
    expect(() => load({ MERIDIAN_TIMEZONE: 'Europe/Londn' }, {})).toThrowError(/Europe\/London/);
  });
});
