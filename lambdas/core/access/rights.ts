/** What a key may do on one calendar. `write` includes `read`. */
export type Right = 'read' | 'write';
export type Grant = 'none' | Right;

/**
 * Who is calling. An API key over HTTP (with the toolsets its connections get when they choose
 * none, if the owner set a default); the local owner over stdio and the CLI, who may do
 * everything (they own the machine and the data dir).
 */
export type Principal =
  | { kind: 'api-key'; keyId: string; label: string; toolsets?: readonly string[] }
  | { kind: 'local-owner' };

export const LOCAL_OWNER: Principal = { kind: 'local-owner' };

/** True when `grant` includes `right`. */
export function grantAllows(grant: Grant | undefined, right: Right): boolean {
  if (grant === 'write') return true;
  return grant === 'read' && right === 'read';
}

/** A stable name for logs and audit fields; never the secret. */
export function principalName(principal: Principal): string {
  return principal.kind === 'local-owner' ? 'local-owner' : `key:${principal.keyId}`;
}
