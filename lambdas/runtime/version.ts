import packageJson from '../../package.json' with { type: 'json' };

/** Meridian's version, reported in the MCP handshake and /health. */
export const VERSION: string = packageJson.version;
