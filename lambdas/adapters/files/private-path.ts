import type { Stats } from 'node:fs';

/** A file or folder Meridian keeps secrets in is not the running user's alone. */
export class NotPrivateError extends Error {
  override name = 'NotPrivateError';
}

export interface PrivacyCheck {
  /** What the path is, for the message: "The data folder", "The key file", "The store entry". */
  what: string;
  /** The command that fixes it when the path is the user's own, e.g. `chmod -R go-w "/x"`. */
  fix: { owner: string; mode: string };
  /** Where to go when it is not theirs, e.g. "choose another --data-dir". */
  otherwise: string;
  /** Refuse it when others can read it too (a key), not only write it. */
  secret?: boolean;
}

/**
 * Refuses a path that another user owns or may write (and, for a secret, read) — even when the
 * running user is root, who can read anything and so would otherwise adopt a folder another user
 * planted, with the master key they chose. Throws {@link NotPrivateError} naming the path, the
 * owner and mode found, and the fix. A no-op where the OS has no user ids (Windows).
 *
 * @example
 * assertPrivate(dir, await stat(dir), { what: 'The data folder', fix, otherwise: 'choose another --data-dir' });
 */
export function assertPrivate(path: string, info: Stats, check: PrivacyCheck): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
  if (info.uid !== uid) {
    throw new NotPrivateError(
      `${check.what} ${path} belongs to uid ${info.uid}, not to you (uid ${uid}), and is mode ${mode}: ` +
        `another user may have planted it, and Meridian refuses it even when run as root. ` +
        `If it is yours, run: ${check.fix.owner}; otherwise ${check.otherwise}.`,
    );
  }
  const openTo = check.secret ? 0o077 : 0o022;
  if ((info.mode & openTo) !== 0) {
    const risk = check.secret
      ? `readable by other users (mode ${mode}): someone else may have read it`
      : `writable by other users (mode ${mode}): someone else may have put or changed what is in it`;
    throw new NotPrivateError(
      `${check.what} ${path} is ${risk}, ` +
        `and Meridian refuses it even when run as root. ` +
        `If its content is yours, run: ${check.fix.mode}; otherwise ${check.otherwise}.`,
    );
  }
}
