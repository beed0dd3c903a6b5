// s3rver ships no types; this covers the part the tests use (see s3rver's lib/s3rver.js).
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    /** Where the objects are stored on disk. */
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string }[];
    /** The domain virtual-host requests end in (`<bucket>.s3.<serviceEndpoint>`); default amazonaws.com. */
    serviceEndpoint?: string;
  }

  class S3rver {
    constructor(options: S3rverOptions);
    /** Creates the configured buckets and listens; resolves with the bound address. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export = S3rver;
}
