import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okTool } from '../../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../../support/served-runtime.js';
import { startTestRuntime } from '../../../support/test-runtime.js';

interface Report {
  status: string;
  contradictions: { kind: string; claimed: string }[];
}

/** Decisions as an agent records them: what was chosen, and what was not. */
const DECISIONS = [
  'Payment processor: Stripe chosen, Adyen rejected because onboarding took too long.',
  'Primary database: PostgreSQL 16, chosen over MongoDB for relational integrity.',
  'Sessions are stored in HttpOnly cookies, not JWTs in localStorage.',
  'For the event bus we chose Kafka 3 over RabbitMQ because of replay.',
];

/** Issue 22 S2: a claim naming a rejected alternative, or negating what memory affirms, is not ACCEPT. */
describe('verify_response on swapped names and negations', () => {
  let served: ServedRuntime;
  let client: Client;
  let projectId: string;
  const verify = (text: string) =>
    okTool<Report>(client, 'verify_response', { project_id: projectId, response_text: text });

  beforeAll(async () => {
    served = await serveRuntime(await startTestRuntime());
    client = (await served.connect('grounding')).client;
    const call = (name: string, args: Record<string, unknown>) =>
      okTool<Record<string, string>>(client, name, args);
    projectId = (await call('initialize_context', { project_path: '/srv/shop', mode: 'none', files: [] }))
      .project_id!;
    const branch = (await call('create_branch', { project_id: projectId, branch_topic: 'Decisions' }))
      .branch_id;
    for (const content of DECISIONS)
      await call('update_memory', { project_id: projectId, branch_id: branch, content, role: 'user' });
  }, 60_000);
  afterAll(() => served?.close());

  it.each([
    ['Adyen is our payment processor.', 'adyen'],
    ['We chose MongoDB as the primary database.', 'mongodb'],
    ['Sessions are stored as JWTs in localStorage.', 'jwt'],
    ['RabbitMQ is our event bus.', 'rabbitmq'],
  ])('"%s" is contradicted, not ACCEPT', async (claim, named) => {
    const report = await verify(claim);

    expect(report.status).not.toBe('ACCEPT');
    expect(report.contradictions).toHaveLength(1);
    expect(report.contradictions[0]!.claimed.toLowerCase()).toContain(named);
  });

  it.each([
    'Stripe is our payment processor.',
    'We chose PostgreSQL 16 as the primary database.',
    'Sessions are stored in HttpOnly cookies.',
    'Adyen was rejected as payment processor.',
    'PostgreSQL 16 was chosen over MongoDB as the primary database.',
    'Kafka 3 is our event bus.',
  ])('"%s" stays ACCEPT', async (claim) => {
    expect(await verify(claim)).toMatchObject({ status: 'ACCEPT', contradictions: [] });
  });
});
