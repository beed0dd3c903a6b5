import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `mrd_<key id>_<secret>`: the id finds the stored record in one read, the
 * 256-bit secret proves possession. Only a SHA-256 of the secret is stored — a slow password hash
 * buys nothing for a uniformly random 256-bit secret and would cost every request.
 */
const TOKEN = /^mrd_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface ParsedToken {
  keyId: string;
  secret: string;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new key id (12 base-36 characters) and secret (32 bytes, base64url). */
export function newKeyMaterial(bytes: (length: number) => Uint8Array): {
  keyId: string;
  secret: string;
  token: string;
} {
  const idBytes = bytes(12);
  const keyId = Array.from(idBytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
  const secret = Buffer.from(bytes(32)).toString('base64url');
  return { keyId, secret, token: `mrd_${keyId}_${secret}` };
}

/** Splits a presented token; undefined when it is not shaped like a Meridian key. */
export function parseToken(token: string): ParsedToken | undefined {
  const match = TOKEN.exec(token.trim());
  return match ? { keyId: match[1]!, secret: match[2]! } : undefined;
}

/** SHA-256 of the secret, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
