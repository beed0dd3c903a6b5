import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ServiceStack, type ServiceStackProps } from '../../../lib/stacks/service-stack.js';
import { testApp } from '../synth-helpers.js';

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

function synthesize(props: ServiceStackProps = {}): Template {
  return Template.fromStack(new ServiceStack(testApp(), 'Service', props));
}

/** "POST /mcp"-style routes of every method in the template, resolved through the resources. */
function routes(template: Template): string[] {
  const resources = template.toJSON().Resources as Resources;
  const pathOf = (resourceId: unknown): string => {
    const ref = (resourceId as { Ref?: string }).Ref;
    const resource = ref === undefined ? undefined : resources[ref];
    // The root resource is referenced through Fn::GetAtt, not Ref.
    if (!resource) return '';
    return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart as string}`;
  };
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::ApiGateway::Method')
    .map((r) => `${r.Properties.HttpMethod as string} ${pathOf(r.Properties.ResourceId)}`)
    .sort();
}

function logicalIdOf(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

describe('ServiceStack', () => {
  describe('MCP function', () => {
    it('runs the bundled handler on nodejs22.x, arm64, with a 29 s timeout', () => {
      const template = synthesize();

      template.hasResourceProperties('AWS::Lambda::Function', {
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: 29,
        MemorySize: 1024,
      });
    });

    it('sets the service name and source maps, and the default zone only when one is given', () => {
      const withZone = synthesize({ defaultTimezone: 'Europe/Paris' });
      const withoutZone = synthesize();

      withZone.hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: {
            MERIDIAN_TIMEZONE: 'Europe/Paris',
            POWERTOOLS_SERVICE_NAME: 'meridian',
            NODE_OPTIONS: '--enable-source-maps',
          },
        },
      });
      withoutZone.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: { MERIDIAN_TIMEZONE: Match.absent() } },
      });
    });

    it('refuses to synthesize with a misspelt default zone', () => {
      expect(() => synthesize({ defaultTimezone: 'Europe/Pariss' })).toThrow(
        /Unknown time zone "Europe\/Pariss"/,
      );
    });

    it('logs to its own log group through a role that may write only there', () => {
      const template = synthesize();
      const functionId = logicalIdOf(template, 'AWS::Lambda::Function');
      const fn = template.findResources('AWS::Lambda::Function')[functionId]!;
      const logGroupId = (fn.Properties.LoggingConfig.LogGroup as { Ref: string }).Ref;

      template.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: [
            {
              Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
              Effect: 'Allow',
              Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
            },
          ],
        },
      });
      template.resourcePropertiesCountIs('AWS::IAM::Policy', {}, 1);
    });
  });

  describe('log groups', () => {
    it('keeps every log group for 30 days', () => {
      const template = synthesize();

      const groups = Object.values(template.findResources('AWS::Logs::LogGroup'));
      expect(groups).toHaveLength(2);
      for (const group of groups) expect(group.Properties.RetentionInDays).toBe(30);
    });
  });

  describe('IAM', () => {
    it('attaches no AWS managed policy except to the account-wide API Gateway logging role', () => {
      const template = synthesize();

      const withManaged = Object.entries(template.findResources('AWS::IAM::Role'))
        .filter(([, role]) => role.Properties.ManagedPolicyArns !== undefined)
        .map(([, role]) => JSON.stringify(role.Properties.ManagedPolicyArns));
      expect(withManaged).toHaveLength(1);
      expect(withManaged[0]).toContain('service-role/AmazonAPIGatewayPushToCloudWatchLogs');
    });
  });

  describe('REST API', () => {
    it('routes exactly GET /health and POST /mcp', () => {
      const template = synthesize();

      expect(routes(template)).toEqual(['GET /health', 'POST /mcp']);
    });

    it('proxies POST /mcp to the function and validates the JSON-RPC envelope first', () => {
      const template = synthesize();
      const functionId = logicalIdOf(template, 'AWS::Lambda::Function');
      const validatorId = logicalIdOf(template, 'AWS::ApiGateway::RequestValidator');

      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: 'POST',
        AuthorizationType: 'NONE',
        RequestValidatorId: { Ref: validatorId },
        Integration: {
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          Uri: {
            'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [functionId, 'Arn'] }, '/invocations'])],
          },
        },
      });
      template.hasResourceProperties('AWS::ApiGateway::RequestValidator', {
        ValidateRequestBody: true,
        ValidateRequestParameters: true,
      });
      template.hasResourceProperties('AWS::ApiGateway::Model', {
        ContentType: 'application/json',
        Schema: Match.objectLike({ anyOf: Match.arrayWith([Match.objectLike({ required: ['jsonrpc'] })]) }),
      });
    });

    it('lets only the deployed stage invoke the function, one permission per route', () => {
      const template = synthesize();

      const sourceArns = Object.values(template.findResources('AWS::Lambda::Permission')).map((p) =>
        JSON.stringify(p.Properties.SourceArn),
      );
      expect(sourceArns).toHaveLength(2);
      expect(sourceArns.some((arn) => arn.includes('test-invoke-stage'))).toBe(false);
    });

    it('traces, throttles and logs the stage without logging request bodies', () => {
      const template = synthesize({ stageName: 'dev' });
      const accessLogsId = Object.keys(template.findResources('AWS::Logs::LogGroup')).find((id) =>
        id.startsWith('McpApiAccessLogs'),
      );

      template.hasResourceProperties('AWS::ApiGateway::Stage', {
        StageName: 'dev',
        TracingEnabled: true,
        AccessLogSetting: {
          DestinationArn: { 'Fn::Join': ['', Match.arrayWith([{ Ref: accessLogsId }])] },
          Format: Match.stringLikeRegexp('"status":"\\$context.status"'),
        },
        MethodSettings: [
          {
            HttpMethod: '*',
            ResourcePath: '/*',
            LoggingLevel: 'ERROR',
            DataTraceEnabled: false,
            ThrottlingRateLimit: 50,
            ThrottlingBurstLimit: 100,
          },
        ],
      });
    });

    it('outputs the MCP endpoint URL, ending in /mcp', () => {
      const template = synthesize();

      template.hasOutput('McpEndpointUrl', {
        Value: { 'Fn::Join': ['', Match.arrayWith(['/mcp'])] },
      });
    });
  });
});
