import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { type CfnKey, Key } from 'aws-cdk-lib/aws-kms';
import { describe, expect, it } from 'vitest';
import { BOOKING_TASKS } from '../../../lambdas/booking/booking-definition.js';
import { MemoryBucket } from '../../../lib/constructs/memory-bucket.js';
import { MeridianTable } from '../../../lib/constructs/meridian-table.js';
import { DataStack } from '../../../lib/stacks/data-stack.js';
import { ServiceStack, type ServiceStackProps } from '../../../lib/stacks/service-stack.js';
import { meridianStacks, testApp } from '../synth-helpers.js';

interface Statement {
  Action: string | string[];
  Effect: string;
  Resource: unknown;
}

function synthesize(props: Partial<ServiceStackProps> = {}): Template {
  return Template.fromStack(meridianStacks(testApp(), props).service);
}

/**
 * Follows every `Fn::GetStackOutput` in a consumer's value into the producer's output it reads,
 * so that a statement's resource can be compared with the producer's own `Fn::GetAtt`.
 */
function throughOutputs(producer: Stack, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => throughOutputs(producer, v));
  if (typeof value !== 'object' || value === null) return value;
  const read = (value as { 'Fn::GetStackOutput'?: { StackName: string; OutputName: string } })[
    'Fn::GetStackOutput'
  ];
  if (read) {
    expect(read.StackName).toBe(producer.stackName);
    const outputs = Template.fromStack(producer).toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs[read.OutputName], `output ${read.OutputName} of ${producer.stackName}`).toBeDefined();
    return outputs[read.OutputName]!.Value;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, throughOutputs(producer, v)]));
}

/** Both templates, and the service's values with each cross-stack read replaced by what it reads. */
function synthesizeBoth(props: Partial<ServiceStackProps> = {}) {
  const { data, service } = meridianStacks(testApp(), props);
  return {
    service: Template.fromStack(service),
    data: Template.fromStack(data),
    throughOutputs: (value: unknown) => throughOutputs(data, value),
  };
}

/** Every statement of every IAM policy in the template, or of the policies under one construct. */
function statements(template: Template, owner = ''): Statement[] {
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith(owner))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** The MCP function's construct id: its resources' logical ids start with it. */
const MCP = 'McpFunction';

function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

/** Whether IAM would allow `action` by one of `allowed` (which may end in a wildcard). */
function allows(allowed: string[], action: string): boolean {
  return allowed.some((a) => a === action || (a.endsWith('*') && action.startsWith(a.slice(0, -1))));
}

/** The route keys ("POST /mcp") of every route of the HTTP API in the template, sorted. */
function routes(template: Template): string[] {
  return Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
    .map((route) => String(route.Properties.RouteKey))
    .sort();
}

function logicalIdOf(template: Template, type: string, owner = ''): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(owner));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

describe('ServiceStack', () => {
  describe('MCP function', () => {
    it('runs the bundled handler on nodejs24.x, arm64, with a 29 s timeout', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::Lambda::Function', {
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: 29,
        MemorySize: 1024,
      });
    });

    it('sets the service name, and the default zone only when one is given', () => {
      const withZone = synthesize({ defaultTimezone: 'Europe/Paris' });
      const withoutZone = synthesize();

      withZone.hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: {
            MERIDIAN_TIMEZONE: 'Europe/Paris',
            POWERTOOLS_SERVICE_NAME: 'meridian',
          },
        },
      });
      withoutZone.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: { MERIDIAN_TIMEZONE: Match.absent() } },
      });
    });

    it("leaves Node's source maps off in every function: each maps its stack traces lazily", () => {
      // --enable-source-maps reads every map at load; lambdas/handlers/lazy-source-maps.ts reads
      // one only when an error passes through its file.
      const functions = Object.values(synthesize().findResources('AWS::Lambda::Function'));
      expect(functions.length).toBeGreaterThan(5);
      for (const fn of functions)
        expect(fn.Properties.Environment?.Variables ?? {}).not.toHaveProperty('NODE_OPTIONS');
    });

    it('tells the function the allowed browser origins only when some are given', () => {
      synthesize({
        allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
      }).hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: { MERIDIAN_ALLOWED_ORIGINS: 'https://app.example.com,http://localhost:5173' },
        },
      });
      synthesize().hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: {
            MERIDIAN_ALLOWED_ORIGINS: Match.absent(),
            MERIDIAN_BOOKING_STATE_MACHINE_ARN: Match.anyValue(),
          },
        },
      });
      expect(() => synthesize({ allowedOrigins: ['app.example.com'] })).toThrow(
        /allowedOrigins.*not an origin/,
      );
    });

    it('refuses to synthesize with a misspelt default zone', () => {
      expect(() => synthesize({ defaultTimezone: 'Europe/Pariss' })).toThrow(
        /Unknown time zone "Europe\/Pariss"/,
      );
    });

    it('logs to its own log group only', () => {
      const template = synthesize();
      const functionId = logicalIdOf(template, 'AWS::Lambda::Function', MCP);
      const fn = template.findResources('AWS::Lambda::Function')[functionId]!;
      const logGroupId = (fn.Properties.LoggingConfig.LogGroup as { Ref: string }).Ref;

      const logging = statements(template, MCP).filter((s) =>
        actionsOf(s).some((a) => a.startsWith('logs:')),
      );
      expect(logging).toEqual([
        {
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Effect: 'Allow',
          Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
        },
      ]);
      expect(
        Object.keys(template.findResources('AWS::IAM::Policy')).filter((id) => id.startsWith(MCP)),
      ).toHaveLength(1);
    });
  });

  describe('data access', () => {
    it('tells the function the table name and the data key ARN from the data stack', () => {
      const { service, data, throughOutputs } = synthesizeBoth();
      const tableId = logicalIdOf(data, 'AWS::DynamoDB::Table');
      const keyId = logicalIdOf(data, 'AWS::KMS::Key');

      const fn =
        service.findResources('AWS::Lambda::Function')[logicalIdOf(service, 'AWS::Lambda::Function', MCP)]!;
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(throughOutputs(variables.MERIDIAN_TABLE_NAME)).toEqual({ Ref: tableId });
      expect(throughOutputs(variables.MERIDIAN_DATA_KEY_ARN)).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    });

    it('may make the document store’s item calls on the table, Query also on its index, and nothing more of DynamoDB', () => {
      const { service, data, throughOutputs } = synthesizeBoth();
      const tableArn = { 'Fn::GetAtt': [logicalIdOf(data, 'AWS::DynamoDB::Table'), 'Arn'] };

      const dynamo = statements(service, MCP)
        .filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')))
        .map((s) => ({ actions: actionsOf(s).sort(), resource: throughOutputs(s.Resource) }));
      expect(dynamo).toEqual([
        {
          actions: [
            'dynamodb:BatchGetItem',
            'dynamodb:BatchWriteItem',
            'dynamodb:DeleteItem',
            'dynamodb:GetItem',
            'dynamodb:PutItem',
          ],
          resource: tableArn,
        },
        { actions: ['dynamodb:Query'], resource: [tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }] },
      ]);
    });

    it('may generate data keys and decrypt with the data key, in one statement on that key', () => {
      const { service, data, throughOutputs } = synthesizeBoth();
      const keyArn = { 'Fn::GetAtt': [logicalIdOf(data, 'AWS::KMS::Key'), 'Arn'] };

      const kms = statements(service, MCP).filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));
      expect(kms).toHaveLength(1);
      expect(throughOutputs(kms[0]!.Resource)).toEqual(keyArn);
      // The Encryption SDK's keyring needs these two; the table's grant brings the rest, and the
      // memory bucket's (SSE-KMS under the same key) GenerateDataKey and Decrypt again.
      expect(allows(actionsOf(kms[0]!), 'kms:GenerateDataKey')).toBe(true);
      expect(allows(actionsOf(kms[0]!), 'kms:Decrypt')).toBe(true);
      expect(actionsOf(kms[0]!).sort()).toEqual([
        'kms:Decrypt',
        'kms:DescribeKey',
        'kms:Encrypt',
        'kms:GenerateDataKey',
        'kms:GenerateDataKey*',
        'kms:ReEncrypt*',
      ]);
    });

    it('grants only GenerateDataKey and Decrypt on a data key the table does not use', () => {
      const app = testApp();
      const shared = new Stack(app, 'Shared');
      const tableKey = new Key(shared, 'TableKey');
      const dataKey = new Key(shared, 'DataKey');
      const table = new MeridianTable(shared, 'Table', { encryptionKey: tableKey }).table;
      const memoryBucket = new MemoryBucket(shared, 'MemoryBucket', { encryptionKey: tableKey }).bucket;
      const service = Template.fromStack(new ServiceStack(app, 'Service', { table, dataKey, memoryBucket }));
      const keyArn = (key: Key) => ({
        'Fn::GetAtt': [shared.getLogicalId(key.node.defaultChild as CfnKey), 'Arn'],
      });

      const kms = statements(service, MCP)
        .filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')))
        .map((s) => ({ actions: actionsOf(s).sort(), resource: throughOutputs(shared, s.Resource) }));
      expect(kms).toEqual([
        {
          // The table's set, and the memory bucket's (encrypted under the table key here).
          actions: [
            'kms:Decrypt',
            'kms:DescribeKey',
            'kms:Encrypt',
            'kms:GenerateDataKey',
            'kms:GenerateDataKey*',
            'kms:ReEncrypt*',
          ],
          resource: keyArn(tableKey),
        },
        { actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resource: keyArn(dataKey) },
      ]);
    });

    it('names every resource it may touch, except the indexes of its one table and the objects of its one bucket', () => {
      const { service, data, throughOutputs } = synthesizeBoth();
      const tableArn = { 'Fn::GetAtt': [logicalIdOf(data, 'AWS::DynamoDB::Table'), 'Arn'] };
      const bucketArn = { 'Fn::GetAtt': [logicalIdOf(data, 'AWS::S3::Bucket', 'MemoryBucket'), 'Arn'] };

      const wildcards = statements(service, MCP)
        .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
        .map(throughOutputs)
        .filter((r) => JSON.stringify(r).includes('*'));
      expect(wildcards).toEqual([
        { 'Fn::Join': ['', [tableArn, '/index/*']] },
        { 'Fn::Join': ['', [bucketArn, '/*']] },
      ]);
    });

    it('lets the MCP function read, write, list and delete the memory bucket, and names it in the environment', () => {
      const { service, data, throughOutputs } = synthesizeBoth();
      const bucketId = logicalIdOf(data, 'AWS::S3::Bucket', 'MemoryBucket');
      const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };

      const s3 = statements(service, MCP)
        .filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')))
        .map((s) => ({ actions: actionsOf(s).sort(), resource: throughOutputs(s.Resource) }));
      // The blob store's calls: GetObject (and HeadObject), PutObject, DeleteObject, ListObjects.
      expect(s3).toEqual([
        {
          actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'],
          resource: { 'Fn::Join': ['', [bucketArn, '/*']] },
        },
        { actions: ['s3:ListBucket'], resource: bucketArn },
      ]);
      const mcpFunctions = Object.entries(service.findResources('AWS::Lambda::Function')).filter(([id]) =>
        id.startsWith(MCP),
      );
      expect(mcpFunctions).toHaveLength(1);
      const variables = (mcpFunctions[0]![1].Properties.Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(throughOutputs(variables.MERIDIAN_MEMORY_BUCKET_NAME)).toEqual({ Ref: bucketId });
    });

    it('gives the memory bucket to the MCP function and the memory compression function only (the audit export its own bucket)', () => {
      const { service } = synthesizeBoth();

      const onS3 = (s: Statement) => actionsOf(s).some((a) => a.startsWith('s3:'));

      const sorted = (list: Statement[]) => list.map((s) => JSON.stringify(s)).sort();
      expect(sorted(statements(service).filter(onS3))).toEqual(
        sorted([
          ...statements(service, MCP).filter(onS3),
          ...statements(service, 'MemoryCompressionRole').filter(onS3),
          ...statements(service, 'AuditExportRole').filter(onS3),
        ]),
      );
      expect(JSON.stringify(statements(service, 'AuditExportRole').filter(onS3))).not.toMatch(/MemoryBucket/);
      expect(statements(service, MCP).filter(onS3)).toHaveLength(2);
      expect(statements(service, 'MemoryCompressionRole').filter(onS3)).toHaveLength(2);
    });
  });

  describe('log groups', () => {
    it('keeps every log group for 30 days', () => {
      const template = synthesize();

      const groups = Object.values(template.findResources('AWS::Logs::LogGroup'));
      // The MCP function's, the API's access logs, the sync function's, the memory compression
      // function's, the audit export function's, the OAuth function's, one per booking step, the
      // state machine's.
      expect(groups).toHaveLength(6 + BOOKING_TASKS.length + 1);
      for (const group of groups) expect(group.Properties.RetentionInDays).toBe(30);
    });
  });

  describe('IAM', () => {
    it('attaches no AWS managed policy to any role (an HTTP API needs no account-wide logging role)', () => {
      const template = synthesize();

      const withManaged = Object.entries(template.findResources('AWS::IAM::Role'))
        .filter(([, role]) => role.Properties.ManagedPolicyArns !== undefined)
        .map(([, role]) => JSON.stringify(role.Properties.ManagedPolicyArns));
      expect(withManaged).toEqual([]);
    });
  });

  describe('HTTP API', () => {
    it('routes exactly the MCP function’s and the sign-in function’s paths, at the host root of a $default stage', () => {
      const template = synthesize();
      const mcpFunctionId = logicalIdOf(template, 'AWS::Lambda::Function', MCP);
      const oauthFunctionId = logicalIdOf(template, 'AWS::Lambda::Function', 'OauthFunction');
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
      const functionOfRoute = (target: unknown) => {
        const integrationId = (target as { 'Fn::Join': [string, [string, { Ref: string }]] })[
          'Fn::Join'
        ][1][1].Ref;
        const integration = integrations[integrationId]!.Properties;
        expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
        return integration.IntegrationUri['Fn::GetAtt'][0];
      };

      const reached = Object.fromEntries(
        Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route) => [
          route.Properties.RouteKey,
          functionOfRoute(route.Properties.Target) === mcpFunctionId
            ? 'mcp'
            : functionOfRoute(route.Properties.Target) === oauthFunctionId
              ? 'oauth'
              : 'other',
        ]),
      );
      expect(reached).toEqual({
        'GET /.well-known/oauth-protected-resource': 'mcp',
        'GET /.well-known/oauth-protected-resource/mcp': 'mcp',
        'GET /health': 'mcp',
        'OPTIONS /.well-known/oauth-protected-resource': 'mcp',
        'OPTIONS /.well-known/oauth-protected-resource/mcp': 'mcp',
        'OPTIONS /mcp': 'mcp',
        'POST /mcp': 'mcp',
        'GET /.well-known/oauth-authorization-server': 'oauth',
        'OPTIONS /.well-known/oauth-authorization-server': 'oauth',
        'GET /.well-known/openid-configuration': 'oauth',
        'OPTIONS /.well-known/openid-configuration': 'oauth',
        'ANY /oauth/{proxy+}': 'oauth',
      });
      // The one stage is $default, which API Gateway serves at the root: no stage in any path.
      expect(
        Object.values(template.findResources('AWS::ApiGatewayV2::Stage')).map((s) => s.Properties.StageName),
      ).toEqual(['$default']);
    });

    it('tells the MCP function its host root, read from the API itself, and prints the endpoint under it', () => {
      const template = synthesize();
      const apiId = logicalIdOf(template, 'AWS::ApiGatewayV2::Api');
      const functionId = logicalIdOf(template, 'AWS::Lambda::Function', MCP);

      const variables = template.findResources('AWS::Lambda::Function')[functionId]!.Properties.Environment
        .Variables as Record<string, unknown>;
      expect(variables.MERIDIAN_PUBLIC_URL).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
      template.hasOutput('McpEndpointUrl', {
        Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }, '/mcp']] },
      });
    });

    it('serves a custom domain, the endpoint and the function’s URL naming it, with the execute-api host off', () => {
      const app = testApp();
      const data = new DataStack(app, 'Data');
      // Imported by ARN, as bin/app.ts does (scoped to a stack that has resources).
      const certificate = Certificate.fromCertificateArn(
        data,
        'Certificate',
        'arn:aws:acm:eu-west-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
      );
      const template = Template.fromStack(
        new ServiceStack(app, 'Service', {
          table: data.table,
          dataKey: data.key,
          memoryBucket: data.memoryBucket,
          domainName: 'mcp.example.com',
          certificate,
        }),
      );

      template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: 'mcp.example.com' });
      template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {
        DomainName: Match.anyValue(),
        Stage: Match.anyValue(),
        ApiMappingKey: Match.absent(),
      });
      template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
      template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: { MERIDIAN_PUBLIC_URL: 'https://mcp.example.com' } },
      });
      template.hasOutput('McpEndpointUrl', { Value: 'https://mcp.example.com/mcp' });
      template.hasOutput('McpDomainTarget', { Value: Match.anyValue() });
    });

    it('throttles the stage and writes JSON access logs without headers or bodies', () => {
      const template = synthesize();
      const accessLogsId = Object.keys(template.findResources('AWS::Logs::LogGroup')).find((id) =>
        id.startsWith('McpApiAccessLogs'),
      );

      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
        AccessLogSettings: {
          DestinationArn: { 'Fn::GetAtt': [accessLogsId, 'Arn'] },
          Format: Match.anyValue(),
        },
      });
      const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0]!;
      const format = JSON.parse(stage.Properties.AccessLogSettings.Format as string) as Record<
        string,
        string
      >;
      expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
      expect(JSON.stringify(format)).not.toMatch(/header|body|authorization/i);
    });

    it('lets only this API invoke the function, on its routes', () => {
      const template = synthesize();
      const apiId = logicalIdOf(template, 'AWS::ApiGatewayV2::Api');

      const sourceArns = Object.values(template.findResources('AWS::Lambda::Permission')).map((p) =>
        JSON.stringify(p.Properties.SourceArn),
      );
      expect(sourceArns).toHaveLength(routes(template).length);
      for (const arn of sourceArns) expect(arn).toContain(`{"Ref":"${apiId}"}`);
    });
  });

  describe('Google OAuth client', () => {
    const functionsWith = (template: Template, variable: string) =>
      Object.values(template.findResources('AWS::Lambda::Function')).filter(
        (fn) => fn.Properties.Environment?.Variables?.[variable] !== undefined,
      ).length;

    it('gives every function that reaches providers the client, when one is configured', () => {
      const template = synthesize({
        googleOAuthClient: { clientId: 'id.apps.googleusercontent.com', clientSecret: 'desktop-secret' },
      });
      // The functions that run the object graph (the memory compression function reaches no
      // provider; the OAuth function holds the data key for its own secret and reaches none either).
      const graphFunctions = functionsWith(template, 'MERIDIAN_DATA_KEY_ARN') - 1;

      expect(graphFunctions).toBeGreaterThan(2);
      expect(functionsWith(template, 'MERIDIAN_GOOGLE_CLIENT_ID')).toBe(graphFunctions);
      expect(functionsWith(template, 'MERIDIAN_GOOGLE_CLIENT_SECRET')).toBe(graphFunctions);
    });

    it('sets nothing Google-related without one', () => {
      expect(functionsWith(synthesize(), 'MERIDIAN_GOOGLE_CLIENT_ID')).toBe(0);
    });

    it('gives the same functions the Microsoft app for Outlook calendars, when one is configured', () => {
      const template = synthesize({
        outlookApp: {
          clientId: '00001111-aaaa-2222-bbbb-3333cccc4444',
          authority: 'https://login.microsoftonline.com/contoso.onmicrosoft.com',
        },
      });
      const graphFunctions = functionsWith(template, 'MERIDIAN_DATA_KEY_ARN') - 1;

      expect(functionsWith(template, 'MERIDIAN_OUTLOOK_CLIENT_ID')).toBe(graphFunctions);
      expect(functionsWith(template, 'MERIDIAN_OUTLOOK_AUTHORITY')).toBe(graphFunctions);
      expect(functionsWith(synthesize(), 'MERIDIAN_OUTLOOK_CLIENT_ID')).toBe(0);
    });
  });
});
