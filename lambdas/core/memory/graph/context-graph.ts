import { type Untrusted, untrustedField } from '../../firewall/untrusted-marks.js';
import { extractAnchors } from '../grounding/anchors.js';
import type { MemoryItem } from '../store/memory-records.js';
import { coReferences } from '../suggestions/co-references.js';
import type { SuggestionSession } from '../suggestions/suggestion-history.js';

/** What the graph needs of a branch. */
export interface GraphBranch {
  branch_id: string;
  topic: string;
  /** The firewall rules the topic trips (see Branch.untrusted). */
  untrusted?: Untrusted | undefined;
  parent_branch_id?: string | undefined;
}

export interface GraphNode {
  id: string;
  type: 'branch' | 'context';
  label: string;
  /** The branch a context belongs to (a branch's own id for a branch). */
  branch_id: string;
  /**
   * The firewall rules the labelled text trips, as search_context flags the same entry: the label
   * quotes stored text to the agent. Absent when none.
   */
  untrusted?: Untrusted;
}

export type GraphEdgeType = 'parent' | 'contains' | 'co_reference' | 'shared_entity';

export interface GraphEdge {
  from: string;
  to: string;
  type: GraphEdgeType;
  /** 0–1: co-references relative to the most frequent pair; shared entities, 1 at three or more. */
  weight: number;
  /** For `shared_entity`: the shared paths or identifiers (at most three). */
  entities?: string[];
}

export interface ContextGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** An entity in more contexts than this (a README path everyone cites) links nothing in particular. */
const MAX_ENTITY_SPREAD = 12;
const LABEL_CHARS = 60;

/**
 * The project's context graph: branches and contexts as nodes; edges from a parent branch to its
 * children, from a branch to its contexts, between contexts accepted together (co-references)
 * and between contexts naming the same paths or identifiers. With `branchId`, the branch, its
 * parent and children, and its contexts.
 */
export function buildContextGraph(input: {
  branches: readonly GraphBranch[];
  items: readonly MemoryItem[];
  sessions: readonly SuggestionSession[];
  branchId?: string | undefined;
}): ContextGraph {
  const { branchId } = input;
  const branches = branchId
    ? input.branches.filter(
        (b) =>
          b.branch_id === branchId ||
          b.parent_branch_id === branchId ||
          input.branches.some((own) => own.branch_id === branchId && own.parent_branch_id === b.branch_id),
      )
    : input.branches;
  const items = branchId ? input.items.filter((item) => item.branch_id === branchId) : input.items;
  const nodes: GraphNode[] = [
    ...branches.map((b) => ({
      id: b.branch_id,
      type: 'branch' as const,
      label: cut(b.topic),
      branch_id: b.branch_id,
      ...untrustedField(b.untrusted),
    })),
    ...items.map((item) => ({
      id: item.item_id,
      type: 'context' as const,
      label: cut(item.path ?? item.text),
      branch_id: item.branch_id,
      // The context's flag, whether the label quotes its text (perhaps cut) or names its path.
      ...untrustedField(item.untrusted),
    })),
  ];
  const present = new Set(nodes.map((n) => n.id));
  const edges: GraphEdge[] = [
    ...branches.flatMap((b) =>
      b.parent_branch_id && present.has(b.parent_branch_id)
        ? [{ from: b.parent_branch_id, to: b.branch_id, type: 'parent' as const, weight: 1 }]
        : [],
    ),
    ...items.flatMap((item) =>
      present.has(item.branch_id)
        ? [{ from: item.branch_id, to: item.item_id, type: 'contains' as const, weight: 1 }]
        : [],
    ),
    ...coReferenceEdges(input.sessions, present),
    ...sharedEntityEdges(items),
  ];
  return { nodes, edges };
}

function coReferenceEdges(sessions: readonly SuggestionSession[], present: ReadonlySet<string>): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const [a, row] of coReferences(sessions)) {
    for (const [b, count] of row) {
      if (a < b && present.has(a) && present.has(b))
        edges.push({ from: a, to: b, type: 'co_reference', weight: count });
    }
  }
  const most = Math.max(1, ...edges.map((e) => e.weight));
  return edges.map((e) => ({ ...e, weight: Math.round((e.weight / most) * 100) / 100 }));
}

function sharedEntityEdges(items: readonly MemoryItem[]): GraphEdge[] {
  const holders = new Map<string, string[]>();
  for (const item of items) {
    const entities = new Set(
      extractAnchors(item.text)
        .filter((a) => a.kind === 'path' || a.kind === 'identifier')
        .map((a) => a.value),
    );
    if (item.path) entities.add(item.path.toLowerCase());
    for (const entity of entities) holders.set(entity, [...(holders.get(entity) ?? []), item.item_id]);
  }
  const shared = new Map<string, { from: string; to: string; entities: string[] }>();
  for (const [entity, ids] of holders) {
    if (ids.length < 2 || ids.length > MAX_ENTITY_SPREAD) continue;
    for (const [i, a] of ids.entries()) {
      for (const b of ids.slice(i + 1)) {
        const [from, to] = a < b ? [a, b] : [b, a];
        const pair = shared.get(`${from}\n${to}`) ?? { from, to, entities: [] };
        pair.entities.push(entity);
        shared.set(`${from}\n${to}`, pair);
      }
    }
  }
  return [...shared.values()].map(({ from, to, entities }) => ({
    from,
    to,
    type: 'shared_entity' as const,
    weight: Math.round(Math.min(1, entities.length / 3) * 100) / 100,
    entities: entities.slice(0, 3),
  }));
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= LABEL_CHARS ? line : `${line.slice(0, LABEL_CHARS - 1)}…`;
}
