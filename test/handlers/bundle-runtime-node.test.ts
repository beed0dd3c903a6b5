/**
 * The bundles are tested on the Node they deploy to: CI runs the whole suite — the bundled-handler
 * tests (test/handlers/*bundle*, the conformance suite against the bundled handler) included — on
 * the Lambda runtime's Node major (.ci/run installs it where the machine's Node is older). This file
 * is the guard: on another Node it is skipped with one line, and under CI=true it fails.
 */
import { describe, expect, it } from 'vitest';
import { LAMBDA_NODE_MAJOR, LAMBDA_NODE_TARGET } from '../../lib/constructs/lambda-bundling.js';
import { needs, type SystemPart } from '../support/system-parts.js';

const RUNNING_MAJOR = Number(process.versions.node.split('.')[0]);

const LAMBDA_NODE: SystemPart = {
  missing: `the bundles deploy to Node ${LAMBDA_NODE_MAJOR} (nodejs${LAMBDA_NODE_MAJOR}.x) but these tests run on Node ${process.versions.node}`,
  present: () => RUNNING_MAJOR === LAMBDA_NODE_MAJOR,
  install: 'export PATH="$(.ci/node24):$PATH"',
};

describe('the Node the bundles are tested on', needs(LAMBDA_NODE), () => {
  it("is the Lambda runtime's, which the bundles also target", () => {
    expect(RUNNING_MAJOR).toBe(LAMBDA_NODE_MAJOR);
    expect(LAMBDA_NODE_TARGET).toBe(`node${RUNNING_MAJOR}`);
  });
});
