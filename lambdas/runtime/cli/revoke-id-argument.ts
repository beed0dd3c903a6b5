/** The commands whose argument after `revoke` is an id oidc-provider minted. */
const ID_COMMANDS = new Set(['sessions', 'clients']);

/**
 * Session and client ids are oidc-provider's, in URL-safe base64: one in 64 begins with "-", and
 * node's `parseArgs` would take it for an option and stop ("Unknown option '-Q…'"), so the id
 * `sessions list` printed could not be revoked. The argument after `sessions revoke` or
 * `clients revoke` is the id whatever it begins with: it is moved behind a `--`, after which
 * parseArgs reads arguments as positionals only (the command takes no other positional).
 *
 * @example
 * revokeIdAsPositional(['sessions', 'revoke', '-Qx1', '--aws']) // ['sessions', 'revoke', '--aws', '--', '-Qx1']
 */
export function revokeIdAsPositional(args: readonly string[]): string[] {
  const revoke = args.findIndex(
    (arg, index) => arg === 'revoke' && index > 0 && ID_COMMANDS.has(args[index - 1]!),
  );
  const id = args[revoke + 1];
  if (revoke < 0 || id === undefined || !id.startsWith('-') || args.includes('--')) return [...args];
  return [...args.slice(0, revoke + 1), ...args.slice(revoke + 2), '--', id];
}
