import * as z from 'zod';
import { MAX_NODE_LIMIT } from '../../../core/memory/graph/graph-page.js';
import { boundedString, untrustedOutput } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { outcome } from './insight-schemas.js';
import { branchIdField, MEMORY_READ, projectIdField } from './memory-fields.js';

export const getContextGraphInfoTool = defineTool({
  name: 'get_context_graph_info',
  title: 'Context graph',
  description:
    'Branches and contexts as nodes; edges: parent (branch→child), contains (branch→context), co_reference (accepted ' +
    'together), shared_entity (same paths or identifiers). Paged: pass next_cursor for more.',
  input: z.object({
    project_id: projectIdField,
    branch_id: branchIdField.optional().describe('Only this branch, its parent and children.'),
    limit: z.number().int().min(1).max(MAX_NODE_LIMIT).optional().describe('Nodes per page; default 50.'),
    cursor: boundedString(200).optional().describe('next_cursor of the previous page.'),
  }),
  output: z.object({
    ...outcome,
    nodes: z.array(
      z.object({
        id: z.string(),
        type: z.enum(['branch', 'context']),
        label: z.string(),
        branch_id: z.string(),
        untrusted: untrustedOutput,
      }),
    ),
    edges: z.array(
      z.object({
        from: z.string(),
        to: z.string(),
        type: z.enum(['parent', 'contains', 'co_reference', 'shared_entity']),
        weight: z.number(),
        entities: z.array(z.string()).optional(),
      }),
    ),
    total_nodes: z.number().int(),
    total_edges: z.number().int(),
    edges_omitted: z.number().int(),
    next_cursor: z.string().optional(),
  }),
  annotations: MEMORY_READ,
  needs: 'memoryInsights',
  run: async (deps, input, { principal }) => {
    const page = await deps.insights.contextGraph(principal, input);
    return {
      success: true,
      ...page,
      message: page.next_cursor
        ? `Nodes ${page.nodes.length} of ${page.total_nodes}; pass next_cursor for more.`
        : `${page.total_nodes} nodes, ${page.total_edges} edges.`,
    };
  },
});
