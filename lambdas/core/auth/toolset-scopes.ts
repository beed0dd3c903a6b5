/**
 * OAuth scopes are Meridian's toolsets: a token with `toolset:time toolset:calendar` may enable
 * those two toolsets and no other. Rights on calendars and projects are not scopes — they are the
 * grant matrix the person consented to, stored with the consent (a scope string cannot carry a
 * per-resource right, and a calendar created later must not be granted by an old consent).
 */
export const TOOLSET_SCOPE_PREFIX = 'toolset:';

/**
 * The scope that stands for a toolset.
 *
 * @example
 * scopeOfToolset('time'); // 'toolset:time'
 */
export function scopeOfToolset(toolset: string): string {
  return `${TOOLSET_SCOPE_PREFIX}${toolset}`;
}

/**
 * The toolsets a space-separated scope string names, in order; other scopes are ignored.
 *
 * @example
 * toolsetsOfScope('openid toolset:time toolset:memory'); // ['time', 'memory']
 */
export function toolsetsOfScope(scope: string | undefined): string[] {
  return [
    ...new Set(
      (scope ?? '')
        .split(' ')
        .filter((item) => item.startsWith(TOOLSET_SCOPE_PREFIX))
        .map((item) => item.slice(TOOLSET_SCOPE_PREFIX.length))
        .filter(Boolean),
    ),
  ];
}

/**
 * The space-separated scope string for toolsets, as a challenge's `scope="…"` names them.
 *
 * @example
 * scopeForToolsets(['time', 'memory']); // 'toolset:time toolset:memory'
 */
export function scopeForToolsets(toolsets: readonly string[]): string {
  return toolsets.map(scopeOfToolset).join(' ');
}
