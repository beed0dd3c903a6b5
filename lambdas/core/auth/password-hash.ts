import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/*
 * Passwords of local people, hashed with scrypt (RFC 7914) from node:crypto: memory-hard, so a
 * stolen data dir costs an attacker memory as well as time per guess, and dependency-free —
 * Argon2id would need a native addon or a WASM build, for a few people on one machine. The
 * parameters (N = 2^15, r = 8, p = 1: 32 MiB, about 0.1 s here) are the ones OWASP lists for
 * scrypt; they travel in the stored text, so raising them later leaves old hashes readable.
 */

const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    // maxmem above 128·N·r (Node refuses anything over its 32 MiB default otherwise).
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...params, maxmem: 256 * params.N * params.r },
      (error, key) => (error ? reject(error) : resolvePromise(key)),
    );
  });
}

/**
 * A new salted hash of a password, as stored: `scrypt$N$r$p$<salt>$<hash>` (base64url).
 *
 * @example
 * const stored = await hashPassword('correct horse battery staple');
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = { N: COST, r: BLOCK_SIZE, p: PARALLELISM };
  const key = await derive(password, salt, params);
  return [
    'scrypt',
    COST,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** True when `password` matches a stored hash; compared in constant time; false for a malformed hash. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((value) => Number.isInteger(value) && value > 0)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const derived = await derive(password, Buffer.from(salt, 'base64url'), params);
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}
