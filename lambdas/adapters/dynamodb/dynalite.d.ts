// dynalite ships no types; this covers the part Meridian uses (see dynalite's index.js JSDoc).
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** LevelDB folder; in memory when omitted. */
    path?: string;
    /** How long a new table stays CREATING (default 500 ms). */
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    verbose?: boolean;
    debug?: boolean;
  }

  /** Creates (does not start) an HTTP server speaking the DynamoDB API; `close()` also closes the store. */
  function dynalite(options?: DynaliteOptions): Server;

  export = dynalite;
}
