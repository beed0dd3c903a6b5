import { randomBytes } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';

const KEY_BYTES = 32;

/**
 * The embedded runtime's master key: 32 random bytes in a file only the owner can read (0600),
 * created on first use. Refuses a key file others can read rather than use a leaked key.
 */
export async function loadOrCreateKeyFile(path: string): Promise<Uint8Array> {
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      const key = randomBytes(KEY_BYTES);
      await handle.writeFile(key);
      return new Uint8Array(key);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) {
    throw new Error(`The key file ${path} is readable by other users. Run: chmod 600 "${path}"`);
  }
  const key = await readFile(path);
  if (key.length !== KEY_BYTES) {
    throw new Error(
      `The key file ${path} is ${key.length} bytes, expected ${KEY_BYTES}: it is damaged or not Meridian's.`,
    );
  }
  return new Uint8Array(key);
}
