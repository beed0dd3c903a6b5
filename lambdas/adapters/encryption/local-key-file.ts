import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { assertPrivate } from '../files/private-path.js';

const KEY_BYTES = 32;

/**
 * The embedded runtime's master key: 32 random bytes in a file only the owner can read (0600),
 * created on first use. Refuses a key file another user owns or others can read or write — even
 * as root — rather than use a key someone else chose or may have read.
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
  // Checked on the open file, so the file judged is the file read.
  const handle = await open(path, 'r');
  try {
    const uid = process.getuid?.() ?? 0;
    assertPrivate(path, await handle.stat(), {
      what: 'The key file',
      fix: { owner: `chown ${uid} "${path}" && chmod 600 "${path}"`, mode: `chmod 600 "${path}"` },
      otherwise: 'remove it: Meridian makes a new key, and what the old one encrypted cannot be read',
      secret: true,
    });
    const key = await handle.readFile();
    if (key.length !== KEY_BYTES) {
      throw new Error(
        `The key file ${path} is ${key.length} bytes, expected ${KEY_BYTES}: it is damaged or not Meridian's.`,
      );
    }
    return new Uint8Array(key);
  } finally {
    await handle.close();
  }
}
