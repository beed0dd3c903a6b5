import type { CallWork } from '../../call-work.js';
import { untrustedField } from '../../firewall/untrusted-marks.js';
import type { MemoryItem } from '../store/memory-records.js';
import { type ClaimVerdict, type ContradictionKind, judgeClaim } from './claim-support.js';
import { extractClaims } from './claims.js';
import { claimQuery, PassageIndex } from './evidence-passages.js';

/** ACCEPT / WARN / REJECT by the score; NO_CLAIMS when nothing in the text could be checked. */
export type GroundingStatus = 'ACCEPT' | 'WARN' | 'REJECT' | 'NO_CLAIMS';

export interface EvidenceItem {
  claim: string;
  /** The memory sentence the verdict rests on (cut to 240 characters), or null when none matched. */
  evidence: string | null;
  /** Where it is: the file's path or the memory item's id. */
  source: string | null;
  grounding: number;
  verdict: ClaimVerdict;
  verified: boolean;
  /** The firewall rules the quoted memory item tripped: its text is data, not instructions. */
  untrusted?: string[];
}

export interface ContradictionItem {
  claim: string;
  kind: ContradictionKind;
  claimed: string;
  found: string;
  evidence: string;
  source: string;
  untrusted?: string[];
}

export interface GroundingReport {
  status: GroundingStatus;
  /** Mean support of the claims; null when there were none (never 1.0 for nothing checked). */
  grounding_score: number | null;
  risk_level: 'low' | 'medium' | 'high' | 'unknown';
  claims_extracted: number;
  claims_verified: number;
  evidence_items: EvidenceItem[];
  contradictions: ContradictionItem[];
  /** Share of claims stated without hedging ("might", "probably"); null with no claims. */
  fuzzy_confidence: number | null;
  /** How many memory items the evidence was drawn from (after `evidence_sources`). */
  evidence_pool: number;
}

export const ACCEPT_AT = 0.7;
export const WARN_AT = 0.3;
/** Passages judged per claim: enough to see both an old and a current value of one fact. */
const CANDIDATES_PER_CLAIM = 8;

/**
 * Passages a claim's search scores for one item of the call's work: a BM25 score is about
 * 0.2 µs, a hundredth of what an item costs elsewhere (call-work.ts). 20,000 two-sentence
 * entries and a 20,000-character response (782 claims) took 6.7 s before this bound.
 */
const PASSAGES_PER_ITEM = 100;

/** How to narrow a grounding check that would read or score too much. */
export const NARROW_GROUNDING =
  'Check a shorter response_text (fewer sentences), or name evidence_sources so fewer memory items are searched.';
const EVIDENCE_CHARS = 240;

const RISK = { ACCEPT: 'low', WARN: 'medium', REJECT: 'high', NO_CLAIMS: 'unknown' } as const;

/**
 * Checks a response against a project's memory without an LLM: one claim per sentence, evidence
 * retrieved per claim, support from shared words and exact anchors, contradictions where memory
 * says another number, path, version, identifier, date or the opposite. A contradiction caps the
 * status at WARN: a wrong fact needs a look even inside an otherwise grounded answer.
 *
 * @example
 * verifyAgainstMemory(items, 'The cache TTL is 300 seconds.').status; // 'ACCEPT' when memory says so
 */
export function verifyAgainstMemory(
  items: readonly MemoryItem[],
  responseText: string,
  options: { evidenceSources?: readonly string[] | undefined; work?: CallWork | undefined } = {},
): GroundingReport {
  const { work } = options;
  const pool = evidencePool(items, options.evidenceSources);
  const claims = extractClaims(responseText);
  // Every item of the pool is read into the index; each claim's search then scores every passage.
  work?.spend(pool.length, NARROW_GROUNDING);
  const index = new PassageIndex(pool);
  const perClaim = Math.ceil(index.size / PASSAGES_PER_ITEM);
  const judgements = claims.map((claim) => {
    work?.spend(perClaim, NARROW_GROUNDING);
    return judgeClaim(claim, index.search(claimQuery(claim), CANDIDATES_PER_CLAIM));
  });
  const evidence_items = judgements.map((j) => ({
    claim: j.claim.text,
    evidence: j.best ? cut(j.best.text) : null,
    source: j.best ? sourceOf(j.best.item) : null,
    grounding: j.support,
    verdict: j.verdict,
    verified: j.verdict === 'supported',
    ...untrustedField(j.best?.item.untrusted),
  }));
  const contradictions = judgements.flatMap((j) =>
    j.contradiction
      ? [
          {
            claim: j.claim.text,
            kind: j.contradiction.kind,
            claimed: j.contradiction.claimed,
            found: cut(j.contradiction.found),
            evidence: cut(j.contradiction.passage.text),
            source: sourceOf(j.contradiction.passage.item),
            ...untrustedField(j.contradiction.passage.item.untrusted),
          },
        ]
      : [],
  );
  const score =
    claims.length === 0
      ? null
      : Math.round((judgements.reduce((s, j) => s + j.support, 0) / claims.length) * 100) / 100;
  const status = statusOf(score, contradictions.length > 0);
  return {
    status,
    grounding_score: score,
    risk_level: RISK[status],
    claims_extracted: claims.length,
    claims_verified: evidence_items.filter((e) => e.verified).length,
    evidence_items,
    contradictions,
    fuzzy_confidence:
      claims.length === 0
        ? null
        : Math.round((claims.filter((c) => !c.hedged).length / claims.length) * 100) / 100,
    evidence_pool: pool.length,
  };
}

function statusOf(score: number | null, contradicted: boolean): GroundingStatus {
  if (score === null) return 'NO_CLAIMS';
  if (score < WARN_AT) return 'REJECT';
  return score >= ACCEPT_AT && !contradicted ? 'ACCEPT' : 'WARN';
}

/** Items named by `sources` (a path or id containing one of them), or every item when none match. */
function evidencePool(
  items: readonly MemoryItem[],
  sources: readonly string[] | undefined,
): readonly MemoryItem[] {
  if (!sources || sources.length === 0) return items;
  const wanted = sources.map((s) => s.toLowerCase());
  const named = items.filter((item) => wanted.some((w) => sourceOf(item).toLowerCase().includes(w)));
  return named.length > 0 ? named : items;
}

function sourceOf(item: MemoryItem): string {
  return item.path ?? item.item_id;
}

function cut(text: string): string {
  return text.length <= EVIDENCE_CHARS ? text : `${text.slice(0, EVIDENCE_CHARS - 1)}…`;
}
