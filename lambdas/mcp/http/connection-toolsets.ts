import type { Principal } from '../../core/access/rights.js';
import type { McpHttpDeps } from '../deps.js';
import { parseToolsets, type ToolsetSelection } from '../toolsets.js';

/** The query parameter a connection chooses its toolsets with: `/mcp?toolsets=time,availability`. */
export const TOOLSETS_PARAM = 'toolsets';

/**
 * The toolsets an HTTP request enables: the URL's `?toolsets=`, else the API key's default, else
 * the server's (`meridian serve --toolsets`), else all. Names are checked against the listing (in
 * the Lambda the bundled one: no tool is loaded); an unknown name throws INVALID_INPUT.
 *
 * @example
 * await connectionToolsets(new Request('http://h/mcp?toolsets=time'), deps, principal); // ['time']
 */
export async function connectionToolsets(
  request: Request,
  deps: McpHttpDeps,
  principal: Principal,
): Promise<ToolsetSelection> {
  const known = Object.keys(await deps.tools.listing());
  const asked = new URL(request.url).searchParams.get(TOOLSETS_PARAM);
  if (asked !== null) return parseToolsets(asked, known, `?${TOOLSETS_PARAM}=`);
  if (principal.kind === 'api-key' && principal.toolsets) {
    // A stored name may predate a renamed toolset: say how to fix the key, not the URL.
    const source = `this API key's default toolsets (the owner changes them with \`meridian keys toolsets ${principal.keyId} LIST\`)`;
    return parseToolsets(principal.toolsets.join(','), known, source);
  }
  return deps.defaultToolsets;
}
