import { basename } from 'node:path';
import type { TestProject, TestSpecification } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.js';

/**
 * Test files whose name contains this need DynamoDB Local; they read its endpoint with
 * `dynamoDbLocalEndpoint()` (test/support/dynamodb-local-endpoint.ts).
 */
export const DYNAMODB_LOCAL_MARKER = 'dynamodb-local';

let dynamoDbLocal: DynamoDbLocal | undefined;

/**
 * Vitest global setup: starts one DynamoDB Local for the whole run, and only when a test file of
 * the run needs it (2.5 s and 185 MB are not worth paying for `vitest run test/core`). A start
 * failure is handed to those tests as an error to report, so that the rest of the run still goes
 * ahead and the failure lands where it matters. Without Java the start fails at once with the
 * line of `JAVA` (test/support/system-parts.ts), and those files are skipped with it — or fail
 * with it under CI=true.
 */
export async function setup(project: TestProject): Promise<void> {
  if (needsDynamoDbLocal(project.vitest.state.getPaths())) await provideDynamoDbLocal(project);
  // Watch mode: a rerun may bring in a file that the first run did not have.
  project.onTestsRerun(async (specifications: TestSpecification[]) => {
    if (!dynamoDbLocal && needsDynamoDbLocal(specifications.map((spec) => spec.moduleId))) {
      await provideDynamoDbLocal(project);
    }
  });
}

export async function teardown(): Promise<void> {
  await dynamoDbLocal?.stop();
  dynamoDbLocal = undefined;
}

function needsDynamoDbLocal(files: string[]): boolean {
  return files.some((file) => basename(file).includes(DYNAMODB_LOCAL_MARKER));
}

async function provideDynamoDbLocal(project: TestProject): Promise<void> {
  try {
    dynamoDbLocal = await startDynamoDbLocal();
    project.provide('dynamoDbLocal', { endpoint: dynamoDbLocal.endpoint });
  } catch (error) {
    project.provide('dynamoDbLocal', { error: (error as Error).message });
  }
}
