import { everySlice, type McpDeps, type McpHttpDeps } from '../mcp/deps.js';
import { allToolsCatalogue } from '../mcp/tools/index.js';

/**
 * An object graph built up front, made servable: every tool, loaded, running against the graph
 * itself. The embedded runtime and the tests serve MCP this way; the Lambda defers both (see
 * aws-http.ts). Kept apart from composeDeps so that composing a graph (the AWS admin CLI) never
 * loads the tools; every tool gets the whole graph, whatever slice it declares.
 *
 * @example
 * const runtime = withAllTools(await composeDeps(platform));
 * await routeHttpRequest(request, runtime);
 */
export function withAllTools<Deps extends McpDeps>(deps: Deps): Deps & McpHttpDeps {
  return {
    ...deps,
    tools: allToolsCatalogue,
    toolDeps: everySlice(deps),
    tokenVerifier: deps.access,
  };
}
