import { DomainError } from '../../errors.js';
import type { ContextGraph, GraphEdge, GraphNode } from './context-graph.js';

/** Nodes per page unless the caller asks otherwise, and the most it may ask for. */
export const DEFAULT_NODE_LIMIT = 50;
export const MAX_NODE_LIMIT = 200;
/** Edges per page, per node asked for: a hub with hundreds of edges must not blow the answer up. */
const EDGES_PER_NODE = 2;

export interface GraphPage {
  nodes: GraphNode[];
  /** Edges leaving this page's nodes, strongest first, at most two per node of the page. */
  edges: GraphEdge[];
  total_nodes: number;
  total_edges: number;
  /** Edges leaving this page's nodes that were left out to keep the answer small. */
  edges_omitted: number;
  /** Pass back for the next nodes; absent on the last page. */
  next_cursor?: string;
}

interface Cursor {
  offset: number;
  revision: string;
}

/**
 * One page of the graph: nodes in a stable order (branches, then contexts oldest first), with the
 * edges that leave them. The cursor carries the memory's revision, so paging over a graph that
 * changed meanwhile is refused rather than silently skipping or repeating nodes.
 */
export function pageOfGraph(
  graph: ContextGraph,
  options: { limit?: number | undefined; cursor?: string | undefined; revision: string },
): GraphPage {
  const limit = options.limit ?? DEFAULT_NODE_LIMIT;
  const offset = options.cursor ? readCursor(options.cursor, options.revision).offset : 0;
  const nodes = graph.nodes.slice(offset, offset + limit);
  const onPage = new Set(nodes.map((n) => n.id));
  const leaving = graph.edges
    .filter((e) => onPage.has(e.from))
    .sort((a, b) => b.weight - a.weight || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  const edges = leaving.slice(0, limit * EDGES_PER_NODE);
  const next = offset + limit;
  return {
    nodes,
    edges,
    total_nodes: graph.nodes.length,
    total_edges: graph.edges.length,
    edges_omitted: leaving.length - edges.length,
    ...(next < graph.nodes.length
      ? { next_cursor: writeCursor({ offset: next, revision: options.revision }) }
      : {}),
  };
}

function writeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.offset, cursor.revision])).toString('base64url');
}

function readCursor(text: string, revision: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'number' || typeof parsed[1] !== 'string') {
    throw new DomainError(
      'INVALID_INPUT',
      'cursor is not one this tool gave: pass next_cursor as received, or omit it.',
      {
        field: 'cursor',
        expected: 'the next_cursor of a previous answer',
        example: 'WzUwLCJyMTIiXQ',
      },
    );
  }
  if (parsed[1] !== revision) {
    throw new DomainError(
      'CONFLICT',
      "The project's memory changed since this cursor was given: call get_context_graph_info again without cursor.",
    );
  }
  return { offset: parsed[0], revision: parsed[1] };
}
