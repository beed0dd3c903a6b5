import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceStackProps } from '../../../lib/stacks/service-stack.js';
import { meridianStacks, testApp } from '../synth-helpers.js';

interface Statement {
  Action: string | string[];
  Resource: unknown;
}

/** The service template, with the organization's own issuer when given. */
function synthesize(signInIssuer?: ServiceStackProps['signInIssuer']) {
  const app = testApp();
  const { service } = meridianStacks(app, signInIssuer ? { signInIssuer } : {});
  return { template: Template.fromStack(service) };
}

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:meridian-sign-in-AbCdEf';

function oauthFunction(template: Template) {
  const [fn, ...others] = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) =>
    id.startsWith('OauthFunction'),
  );
  expect(others).toEqual([]);
  return fn![1].Properties as { Environment: { Variables: Record<string, unknown> }; Handler: string };
}

function oauthStatements(template: Template): Statement[] {
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith('OauthFunction'))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

const actionsOf = (statement: Statement) => [statement.Action].flat();

describe('OauthFunction', () => {
  // The first synth of a file pays for loading aws-cdk-lib: in a hook, whose time limit allows it.
  let defaults: Template;
  beforeAll(() => {
    defaults = synthesize().template;
  });

  it('runs the OAuth handler on the table and the data key, people signing in at the stack’s Cognito pool', () => {
    const template = defaults;
    const variables = oauthFunction(template).Environment.Variables;

    expect(Object.keys(variables).sort()).toEqual([
      'MERIDIAN_DATA_KEY_ARN',
      'MERIDIAN_PUBLIC_URL',
      'MERIDIAN_SIGN_IN_CLIENT_ID',
      'MERIDIAN_SIGN_IN_ISSUER',
      'MERIDIAN_TABLE_NAME',
      'POWERTOOLS_SERVICE_NAME',
    ]);
    const actions = oauthStatements(template).flatMap(actionsOf);
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'kms:Decrypt', 'kms:GenerateDataKey*']),
    );
    expect(actions.filter((action) => action.startsWith('secretsmanager:'))).toEqual([]);
  });

  it('reads the sign-in client secret it is given, and no other', () => {
    const { template } = synthesize({
      issuer: 'https://login.example.com',
      clientId: 'meridian',
      clientSecretArn: SECRET_ARN,
    });
    const variables = oauthFunction(template).Environment.Variables;

    expect(variables).toMatchObject({
      MERIDIAN_SIGN_IN_ISSUER: 'https://login.example.com',
      MERIDIAN_SIGN_IN_CLIENT_ID: 'meridian',
    });
    const secretArn = variables.MERIDIAN_SIGN_IN_CLIENT_SECRET_ARN;
    expect(secretArn).toBe(SECRET_ARN);
    const secretReads = oauthStatements(template).filter((s) =>
      actionsOf(s).some((action) => action.startsWith('secretsmanager:')),
    );
    expect(secretReads).toHaveLength(1);
    expect(actionsOf(secretReads[0]!)).toEqual(['secretsmanager:GetSecretValue']);
    expect(secretReads[0]!.Resource).toEqual(secretArn);
  });

  it('has the MCP function accept its tokens, on the same host', () => {
    const mcp = Object.entries(defaults.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.startsWith('McpFunction'),
    )![1].Properties as { Environment: { Variables: Record<string, unknown> } };

    expect(mcp.Environment.Variables).toMatchObject({ MERIDIAN_OAUTH_TOKENS: 'on' });
    expect(mcp.Environment.Variables.MERIDIAN_PUBLIC_URL).toEqual(
      oauthFunction(defaults).Environment.Variables.MERIDIAN_PUBLIC_URL,
    );
  });
});
