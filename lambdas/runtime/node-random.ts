import { randomBytes, randomUUID } from 'node:crypto';
import type { RandomSource } from '../core/ports/index.js';

/** The platform's CSPRNG behind the RandomSource port. */
export const nodeRandom: RandomSource = {
  bytes: (length) => new Uint8Array(randomBytes(length)),
  uuid: () => randomUUID(),
};
