import * as z from 'zod';
import { boundedString } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { outcome } from './insight-schemas.js';
import { MEMORY_READ, projectIdField } from './memory-fields.js';

const MESSAGES = {
  ACCEPT: 'Well grounded in project memory.',
  WARN: 'Partly grounded or contradicted: review the claims below before relying on them.',
  REJECT: 'Mostly unsupported by project memory: likely hallucinated.',
  NO_CLAIMS: 'No verifiable claim (nothing with facts, names or numbers to check): no score.',
} as const;

export const verifyResponseTool = defineTool({
  name: 'verify_response',
  title: 'Check a response against memory',
  description:
    "Checks each sentence of a response against the project's memory and files, with no LLM. grounding_score (mean support, " +
    'null when nothing is checkable): ≥0.7 ACCEPT, ≥0.3 WARN, else REJECT; any contradiction (changed number, path, version, ' +
    'name, date, negation) caps it at WARN.',
  input: z.object({
    project_id: projectIdField,
    response_text: boundedString(20_000).describe('The text to check, such as an answer you drafted.'),
    evidence_sources: z
      .array(boundedString(300))
      .max(20)
      .optional()
      .describe('Only evidence whose path or id contains one of these (all memory if none match).'),
  }),
  output: z.object({
    ...outcome,
    grounding_score: z.number().nullable(),
    status: z.enum(['ACCEPT', 'WARN', 'REJECT', 'NO_CLAIMS']),
    risk_level: z.enum(['low', 'medium', 'high', 'unknown']),
    claims_extracted: z.number().int(),
    claims_verified: z.number().int(),
    evidence_items: z.array(
      z.object({
        claim: z.string(),
        evidence: z.string().nullable(),
        source: z.string().nullable(),
        grounding: z.number(),
        verdict: z.enum(['supported', 'partial', 'unsupported', 'contradicted']),
        verified: z.boolean(),
        untrusted: z.array(z.string()).optional(),
      }),
    ),
    contradictions: z.array(
      z.object({
        claim: z.string(),
        kind: z.string(),
        claimed: z.string(),
        found: z.string(),
        evidence: z.string(),
        source: z.string(),
        untrusted: z.array(z.string()).optional(),
      }),
    ),
    fuzzy_confidence: z.number().nullable(),
    evidence_pool: z.number().int(),
  }),
  annotations: MEMORY_READ,
  needs: 'memoryInsights',
  run: async (deps, input, { principal, work }) => {
    const report = await deps.insights.verifyResponse(principal, input, work);
    return { success: true, ...report, message: MESSAGES[report.status] };
  },
});
